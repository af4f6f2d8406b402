import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';

/** A list or a pane still loading: a spinner centred in the space the content will take. */
export function LoadingBlock({ label, className }: { label: string; className?: string }) {
  return (
    <div className={cn('flex items-center justify-center', className)}>
      <Spinner className="size-6" label={label} />
    </div>
  );
}
