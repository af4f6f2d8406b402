import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { isChunkLoadFailure } from '@client/lib/chunk-load';
import { cn } from '@client/lib/utils';
import { PART_FAILED_TEXTS } from '@shared/field-texts';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called before the children render again after "Try again" (e.g. to forget a failed lazy load). */
  onRetry?: () => void;
  /** A whole page fills the screen; a part of a page (the default) takes only its own space. */
  fullPage?: boolean;
  /** When it changes (the address, say), a shown error is forgotten and the children render again. */
  resetKey?: string;
}

interface ErrorBoundaryState {
  error: unknown;
}

/**
 * CONTRACT §23: a part that fails to load or throws shows what happened and a way to retry,
 * never a blank page. Around every route and every lazy part (app.tsx). Everything it renders is
 * in the first load, which is why it has no icons: an error path must not need another chunk, and
 * /auth's first load is at the edge of its budget (bench/bundle.bench.ts).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A part of the page failed', error, info.componentStack);
    // A part that could not be fetched offline is fetched again by itself once the browser is back.
    if (isChunkLoadFailure(error)) window.addEventListener('online', this.retry, { once: true });
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', this.retry);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.retry();
  }

  private readonly retry = () => {
    window.removeEventListener('online', this.retry);
    this.props.onRetry?.();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <PartFailed loading={isChunkLoadFailure(error)} fullPage={this.props.fullPage ?? false} onRetry={this.retry} />;
  }
}

function PartFailed({ loading, fullPage, onRetry }: { loading: boolean; fullPage: boolean; onRetry: () => void }) {
  return (
    <div
      role="alert"
      data-testid="part-failed"
      className={cn('flex flex-col items-center justify-center gap-3 px-4 py-8 text-center', fullPage && 'min-h-dvh')}
    >
      <p className="font-semibold">{loading ? PART_FAILED_TEXTS.loadTitle : PART_FAILED_TEXTS.crashTitle}</p>
      <p className="max-w-sm text-sm text-muted-foreground">{loading ? PART_FAILED_TEXTS.loadHint : PART_FAILED_TEXTS.crashHint}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={onRetry}>
          {PART_FAILED_TEXTS.retry}
        </Button>
        <Button variant="outline" onClick={() => window.location.reload()}>
          {PART_FAILED_TEXTS.reload}
        </Button>
      </div>
    </div>
  );
}
