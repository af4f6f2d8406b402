import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A section of a details panel: its heading (a muted icon, then the name) labels it, so a screen
 * reader announces the section by name.
 */
export function DetailsSection({ id, icon: Icon, title, className, children }: { id: string; icon: LucideIcon; title: string; className: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h3 id={id} className="flex items-center gap-2 text-sm font-semibold">
        <Icon className="size-4 text-muted-foreground" aria-hidden />
        {title}
      </h3>
      {children}
    </section>
  );
}
