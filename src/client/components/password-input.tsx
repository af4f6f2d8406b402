import { Eye, EyeOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { Input } from '@client/components/ui/input';
import { cn } from '@client/lib/utils';

interface PasswordInputProps extends Omit<ComponentProps<'input'>, 'type'> {
  /** Names the field in the toggle's label: "Show {fieldName}" / "Hide {fieldName}". */
  fieldName?: string;
}

/** A password field with its own show/hide toggle (SPEC §2). */
export function PasswordInput({ className, fieldName = 'password', id, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input id={id} type={visible ? 'text' : 'password'} className={cn('pr-11', className)} {...props} />
      <button
        type="button"
        aria-label={`${visible ? 'Hide' : 'Show'} ${fieldName}`}
        aria-controls={id}
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
}
