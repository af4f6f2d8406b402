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
  /** Above the message of a whole page: the page's header, when its code is at hand (lib/page-chrome.ts). */
  header?: ReactNode;
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
    const failed = <PartFailed loading={isChunkLoadFailure(error)} fullPage={this.props.fullPage ?? false} onRetry={this.retry} withHeader={!!this.props.header} />;
    if (!this.props.header) return failed;
    // The header stays, the message takes the page's body (issue 43: the offline message replaced
    // the header too, and with it the way to the other pages and Logout).
    return (
      <div className="min-h-dvh">
        {this.props.header}
        <main>{failed}</main>
      </div>
    );
  }
}

function PartFailed({ loading, fullPage, onRetry, withHeader }: { loading: boolean; fullPage: boolean; onRetry: () => void; withHeader: boolean }) {
  return (
    <div
      role="alert"
      data-testid="part-failed"
      className={cn('flex flex-col items-center justify-center gap-3 px-4 py-8 text-center', fullPage && (withHeader ? 'min-h-[calc(100dvh-4rem)]' : 'min-h-dvh'))}
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
