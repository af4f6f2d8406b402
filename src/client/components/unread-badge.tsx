/** The count of unread messages beside a Messages link, read out as ", unread: N"; nothing when all are read. */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span data-testid="unread-badge" className="ml-0.5 min-w-5 rounded-full bg-primary px-1.5 text-center text-xs leading-5 font-semibold text-primary-foreground tabular-nums">
      <span className="sr-only">, unread: </span>
      {count > 99 ? '99+' : count}
    </span>
  );
}
