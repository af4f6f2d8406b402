import { AudioLines } from 'lucide-react';
import { PRODUCT_NAME } from '@shared/brand';

/** The product's name and mark at the top of the signed-out pages (sign-in, new password). */
export function ProductMark() {
  return (
    <header className="flex items-center gap-2.5">
      <span className="flex size-9 items-center justify-center rounded-lg bg-primary/20 text-primary-soft ring-1 ring-primary/30">
        <AudioLines className="size-5" aria-hidden />
      </span>
      <span className="text-base font-semibold tracking-tight">{PRODUCT_NAME}</span>
    </header>
  );
}
