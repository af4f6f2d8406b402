import { PlaceholderPage } from '@client/components/placeholder-page';

export function CheckoutPage({ submissionId }: { submissionId: string }) {
  return (
    <PlaceholderPage title="Checkout" summary="Pay securely by card for the plan chosen for this submission.">
      <p className="text-sm text-muted-foreground">
        Submission: <span className="font-mono text-foreground">{submissionId}</span>
      </p>
    </PlaceholderPage>
  );
}
