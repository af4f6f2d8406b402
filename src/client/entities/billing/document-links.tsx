import { FileText } from 'lucide-react';
import { BILLING_DOCUMENT_TITLE, type BillingDocumentSummary } from '@shared/billing';
import { Button } from '@client/components/ui/button';

/** Each document as a download of its PDF, named by its number ("Invoice INV-2026-000001"). */
export function DocumentLinks({ documents, emptyText = 'None yet' }: { documents: BillingDocumentSummary[]; emptyText?: string }) {
  if (documents.length === 0) return <span className="text-sm text-muted-foreground">{emptyText}</span>;
  return (
    <span className="flex flex-wrap gap-2">
      {documents.map((document) => (
        <Button key={document.kind} asChild variant="outline" size="sm">
          <a href={document.url} download={`${document.number}.pdf`}>
            <FileText aria-hidden />
            {BILLING_DOCUMENT_TITLE[document.kind]} <span className="font-mono text-xs">{document.number}</span>
          </a>
        </Button>
      ))}
    </span>
  );
}
