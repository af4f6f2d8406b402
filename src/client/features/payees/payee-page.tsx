import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { PRODUCT_NAME } from '@shared/brand';
import { OWNER_ROLE_LABELS } from '@shared/rights-texts';
import { PAYEE_TEXTS, SHARE_MISSING_TEXT, TAX_FORM_LABELS, type PayeePage as PayeeView, type StatementYear } from '@shared/payees';
import { type TaxFormInput } from '@shared/payee-schemas';
import { PAYOUT_TEXTS } from '@shared/payouts';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorCodeOf, errorMessage } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { TaxFormForm } from '@client/entities/payees/tax-form-form';

/** Where the page keeps its link while Stripe's onboarding has the browser: the token never goes to Stripe. */
const TOKEN_KEY = 'payee-link';
const payeeKey = (token: string) => [`/api/payee/${token}`] as const;
const money = (amount: string) => `$${amount}`;
const shortDate = (iso: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

/** One figure of the payee's money: what is owed, what was paid. */
function Amount({ label, amount, testId }: { label: string; amount: string; testId: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold" data-testid={testId}>
        {money(amount)}
      </dd>
    </div>
  );
}

/**
 * /payee/{token}: a co-owner's own page from their email (CONTRACT §24), no account: what they
 * earned and what each share waits for, their tax form, their payout account with Stripe and
 * their yearly statements. Phone first; its own small route with nothing of the signed-in app.
 */
export function PayeePage({ token }: { token: string }) {
  useDocumentTitle(PAYEE_TEXTS.title);
  const page = useQuery<PayeeView>({ queryKey: payeeKey(token), retry: false });
  const statements = useQuery<StatementYear[]>({ queryKey: [`/api/payee/${token}/statements`], retry: false, enabled: page.isSuccess });
  const file = useMutation({
    mutationFn: (form: TaxFormInput) => apiRequest('POST', `/api/payee/${token}/tax-form`, form),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payeeKey(token) }),
  });
  const connect = useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', `/api/payee/${token}/payout-account`, {}),
    onSuccess: ({ url }) => {
      sessionStorage.setItem(TOKEN_KEY, token);
      window.location.assign(url);
    },
  });
  const view = page.data;
  const gone = errorCodeOf(page.error) === 'payee_link_gone';
  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-lg content-start gap-4 px-3 py-6 sm:py-10">
      <header className="grid gap-1">
        <p className="text-xs text-muted-foreground">{PRODUCT_NAME}</p>
        <h1 className="text-xl font-semibold">{view ? `Hello ${view.name}` : PAYEE_TEXTS.title}</h1>
        {view ? <p className="text-sm text-muted-foreground">{PAYEE_TEXTS.intro}</p> : null}
      </header>
      {page.isLoading ? <Spinner label="Loading your payouts" /> : null}
      {page.isError ? gone ? <FreshLink /> : <p role="alert">{errorMessage(page.error)}</p> : null}
      {view ? (
        <>
          <section aria-labelledby="earned" className="grid gap-2 rounded-lg border p-4">
            <h2 id="earned" className="font-medium">
              {PAYEE_TEXTS.earned}
            </h2>
            <dl className="grid grid-cols-2 gap-2 text-sm">
              <Amount label={PAYEE_TEXTS.owed} amount={view.owed} testId="payee-owed" />
              <Amount label={PAYEE_TEXTS.paid} amount={view.paid} testId="payee-paid" />
            </dl>
            {view.shares.length === 0 ? <p className="text-sm">{PAYEE_TEXTS.noShares}</p> : null}
            <ul className="grid gap-2">
              {view.shares.map((share) => (
                <li key={`${share.submissionId}:${share.ownerId}`} className="grid gap-0.5 rounded-md bg-muted/40 p-3 text-sm" data-testid="payee-share">
                  <p className="flex justify-between gap-2">
                    <span className="font-medium">{share.songTitle}</span>
                    <span className="font-semibold">{money(share.amount)}</span>
                  </p>
                  <p className="text-muted-foreground">
                    {OWNER_ROLE_LABELS[share.role]}, {share.share}% · earned {shortDate(share.earnedAt)}
                  </p>
                  <p>{share.status === 'paid' ? `Paid ${share.paidAt ? shortDate(share.paidAt) : ''}` : share.missing.length > 0 ? `Waiting: ${share.missing.map((m) => SHARE_MISSING_TEXT[m]).join(' · ')}` : 'Ready: the label pays it next'}</p>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="tax-form" className="grid gap-2 rounded-lg border p-4">
            <h2 id="tax-form" className="font-medium">
              {PAYEE_TEXTS.taxForm}
            </h2>
            {view.taxForm.status === 'on_file' && view.taxForm.kind ? (
              <div className="grid gap-1 text-sm" data-testid="payee-tax-form">
                <p>
                  {PAYEE_TEXTS.taxFormOnFile}: {TAX_FORM_LABELS[view.taxForm.kind]}, {view.taxForm.legalName}, {view.taxForm.country}
                  {view.taxForm.tinLast4 ? `, number ending ${view.taxForm.tinLast4}` : ''}
                </p>
                <a className="text-primary underline" href={`/api/payee/${token}/tax-form.pdf`} download>
                  Download the form as signed (PDF)
                </a>
              </div>
            ) : (
              <>
                <p className="text-sm text-muted-foreground">{PAYEE_TEXTS.taxFormMissing}</p>
                <TaxFormForm defaultName={view.name} pending={file.isPending} error={file.isError ? errorMessage(file.error) : null} onSubmit={(form) => file.mutate(form)} />
              </>
            )}
          </section>

          <section aria-labelledby="payouts" className="grid gap-2 rounded-lg border p-4">
            <h2 id="payouts" className="font-medium">
              {PAYEE_TEXTS.payouts}: <span data-testid="payee-payout-status">{PAYOUT_TEXTS.status[view.payoutAccount.status]}</span>
            </h2>
            <p className="text-sm text-muted-foreground">{PAYOUT_TEXTS.explain[view.payoutAccount.status]}</p>
            {view.payoutAccount.status !== 'active' ? (
              <Button onClick={() => connect.mutate()} disabled={connect.isPending} className="justify-self-start">
                {connect.isPending ? PAYOUT_TEXTS.opening : view.payoutAccount.status === 'none' ? PAYEE_TEXTS.connect : PAYOUT_TEXTS.finish}
              </Button>
            ) : null}
            {connect.isError ? <p role="alert" className="text-sm text-destructive-soft">{errorMessage(connect.error)}</p> : null}
          </section>

          {statements.data && statements.data.length > 0 ? (
            <section aria-labelledby="statements" className="grid gap-2 rounded-lg border p-4">
              <h2 id="statements" className="font-medium">
                {PAYEE_TEXTS.statements}
              </h2>
              <ul className="grid gap-1 text-sm">
                {statements.data.map((s) => (
                  <li key={s.year}>
                    <a className="text-primary underline" href={`/api/payee/${token}/statements/${s.year}.pdf`} download>
                      {s.year}: {money(s.total)} (PDF)
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <p className="text-xs text-muted-foreground">{PAYEE_TEXTS.keptNote}</p>
        </>
      ) : null}
    </main>
  );
}

/** A link that expired or was never good: ask for a fresh one by address (202 whatever it is). */
function FreshLink() {
  const [email, setEmail] = useState('');
  const ask = useMutation({ mutationFn: () => apiRequest('POST', '/api/payee/link', { email: email.trim() }) });
  return (
    <section className="grid gap-2 rounded-lg border p-4" aria-label="Ask for a fresh link">
      <p role="alert" className="text-sm">
        {PAYEE_TEXTS.gone}
      </p>
      {ask.isSuccess ? (
        <p role="status" className="text-sm">
          {PAYEE_TEXTS.linkSent}
        </p>
      ) : (
        <form
          className="flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            ask.mutate();
          }}
        >
          <Input type="email" autoComplete="email" aria-label="Your email address" value={email} onChange={(e) => setEmail(e.target.value)} className="min-w-0 flex-1" />
          <Button type="submit" disabled={ask.isPending || !email.includes('@')}>
            {PAYEE_TEXTS.askLink}
          </Button>
        </form>
      )}
    </section>
  );
}

/** /payee/return: back from Stripe's onboarding, to the payee's page kept in this tab. */
export function PayeeReturnPage() {
  const [, navigate] = useLocation();
  const [token] = useState(() => sessionStorage.getItem(TOKEN_KEY));
  useEffect(() => {
    if (token) navigate(`/payee/${token}`, { replace: true });
  }, [navigate, token]);
  if (token) return <Spinner label="Back from Stripe" />;
  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-lg content-start gap-4 px-3 py-6">
      <h1 className="text-xl font-semibold">{PAYEE_TEXTS.title}</h1>
      <FreshLink />
    </main>
  );
}
