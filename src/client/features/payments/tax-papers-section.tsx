import { useMutation, useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { PAYEE_TEXTS, TAX_FORM_LABELS, type StatementYear, type TaxFormSummary } from '@shared/payees';
import { type TaxFormInput } from '@shared/payee-schemas';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { apiRequest, errorMessage } from '@client/lib/api';
import { useAuth } from '@client/lib/auth';
import { queryClient } from '@client/lib/query-client';
import { TaxFormForm } from '@client/entities/payees/tax-form-form';

const TAX_FORM_KEY = ['/api/payouts/tax-form'] as const;

/**
 * The artist's tax papers on /settings/billing (CONTRACT §24): the tax form the label needs before
 * the first payout (its number shown as its last four only), the form as signed, and each year's
 * bonus statement as a PDF.
 */
export function TaxPapersSection() {
  const { user } = useAuth();
  const form = useQuery<TaxFormSummary>({ queryKey: TAX_FORM_KEY });
  const statements = useQuery<StatementYear[]>({ queryKey: ['/api/payouts/statements'] });
  const file = useMutation({
    mutationFn: (input: TaxFormInput) => apiRequest<TaxFormSummary>('POST', '/api/payouts/tax-form', input),
    onSuccess: (filed) => {
      queryClient.setQueryData(TAX_FORM_KEY, filed);
      void queryClient.invalidateQueries({ queryKey: ['/api/bonus'] });
    },
  });
  const onFile = form.data?.status === 'on_file' && form.data.kind ? form.data : null;
  return (
    <Card id="tax-papers" data-testid="tax-papers-section">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText className="size-5 text-primary-soft" aria-hidden />
          Tax form and statements
        </CardTitle>
        <CardDescription>The label needs your tax form before it pays your first bonus. {PAYEE_TEXTS.keptNote}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {onFile ? (
          <div className="grid gap-1" data-testid="tax-form-on-file">
            <p>
              On file: {TAX_FORM_LABELS[onFile.kind!]}, {onFile.legalName}, {onFile.country}
              {onFile.tinLast4 ? `, number ending ${onFile.tinLast4}` : ''}
            </p>
            <a className="text-primary underline" href="/api/payouts/tax-form.pdf" download>
              Download the form as signed (PDF)
            </a>
          </div>
        ) : form.data ? (
          <TaxFormForm
            defaultName={user?.artistName ?? ''}
            pending={file.isPending}
            error={file.isError ? errorMessage(file.error) : null}
            onSubmit={(input) => file.mutate(input)}
          />
        ) : null}
        {statements.data && statements.data.length > 0 ? (
          <ul className="grid gap-1" aria-label="Yearly bonus statements">
            {statements.data.map((s) => (
              <li key={s.year}>
                <a className="text-primary underline" href={`/api/payouts/statements/${s.year}.pdf`} download>
                  Bonus statement {s.year}: ${s.total} (PDF)
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
