import { createContext, useContext, useId, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { cn } from '@client/lib/utils';

/**
 * Tabs by the WAI-ARIA tabs pattern (automatic activation, arrows/Home/End move between tabs),
 * written here rather than taken from Radix: the sign-in page is their one user, and Radix's
 * tabs with their roving-focus and collection layers were 7 KB of the 100 KB that page may
 * download (issue 27, decision 163). The markup keeps Radix's `data-state` attributes.
 */
interface TabsState {
  value: string;
  select: (value: string) => void;
  idOf: (value: string, part: 'tab' | 'panel') => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('a tab outside <Tabs>');
  return state;
}

export function Tabs({ defaultValue, ...props }: ComponentProps<'div'> & { defaultValue: string }) {
  const [value, select] = useState(defaultValue);
  const base = useId();
  const idOf = (tab: string, part: 'tab' | 'panel') => `${base}-${part}-${tab}`;
  return (
    <TabsContext.Provider value={{ value, select, idOf }}>
      <div {...props} />
    </TabsContext.Provider>
  );
}

export function TabsList({ className, ...props }: ComponentProps<'div'>) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)') ?? [])];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length];
    tab?.focus();
    tab?.click();
  };
  return (
    <div
      ref={list}
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className={cn('inline-flex h-11 items-center rounded-lg bg-muted p-1 text-muted-foreground', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, value, ...props }: ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idOf(value, 'tab')}
      aria-selected={active}
      aria-controls={tabs.idOf(value, 'panel')}
      data-state={active ? 'active' : 'inactive'}
      tabIndex={active ? 0 : -1}
      onClick={() => tabs.select(value)}
      className={cn(
        'inline-flex h-full flex-1 cursor-pointer items-center justify-center whitespace-nowrap rounded-md px-3 text-sm font-medium transition-colors outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

/** Only the chosen tab's panel is in the page, as with Radix. */
export function TabsContent({ className, value, ...props }: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idOf(value, 'panel')}
      aria-labelledby={tabs.idOf(value, 'tab')}
      data-state="active"
      tabIndex={0}
      className={cn('mt-6 outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-md', className)}
      {...props}
    />
  );
}
