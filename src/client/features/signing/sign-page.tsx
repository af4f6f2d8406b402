import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { PRODUCT_NAME } from '@shared/brand';
import { OWNER_ROLE_LABELS, RIGHTS_MESSAGES } from '@shared/rights';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Checkbox } from '@client/components/ui/checkbox';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { errorCodeOf, errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AgreementView } from '@client/entities/submission/agreement-view';
import { useSignByLink, useSigningLink } from '@client/entities/submission/rights-queries';

/**
 * /sign/{token}: a co-owner's single-use link from their email (CONTRACT §22). They read the
 * agreement and sign it with their typed name, no account needed; a used or expired link says so.
 */
export function SignPage({ token }: { token: string }) {
  useDocumentTitle('Sign the licence agreement');
  const link = useSigningLink(token);
  const sign = useSignByLink(token);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const view = link.data;
  const gone = errorCodeOf(link.error) === 'signing_link_gone';
  const nameOk = name.trim().length >= 2;
  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-2xl px-3 py-6 sm:px-4 sm:py-10">
      <Card className="w-full self-start">
        <CardHeader>
          <CardTitle>{view ? `Licence agreement: ${view.songTitle}` : 'Licence agreement'}</CardTitle>
          <CardDescription>{PRODUCT_NAME}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {link.isLoading ? <Spinner label="Loading the agreement" /> : null}
          {link.isError ? (
            <p role="alert" className="text-sm">
              {gone ? 'This signing link was already used or has expired. If you still need to sign, ask the artist to contact the label.' : errorMessage(link.error)}
            </p>
          ) : null}
          {view ? (
            <>
              <p className="text-sm">
                You are named as an owner of this song: <strong>{view.owner.name}</strong>, {OWNER_ROLE_LABELS[view.owner.role].toLowerCase()},{' '}
                {view.owner.share}%. Read the agreement, then sign it below.
              </p>
              <AgreementView agreement={view} />
              {sign.isSuccess ? (
                <p role="status" className="flex items-center gap-2 rounded-md border border-success/40 bg-success/10 p-3 text-sm">
                  <CheckCircle2 className="size-4 text-success" aria-hidden /> Thank you: your signature is recorded. You can close this page.
                </p>
              ) : (
                <div className="grid gap-3 rounded-lg border bg-background/40 p-4">
                  <FormField id="sign-name" label="Your full name, as your signature" hint={nameOk ? undefined : RIGHTS_MESSAGES.typedName}>
                    <Input autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
                  </FormField>
                  <label className="flex items-start gap-2 text-sm">
                    <Checkbox checked={consent} onCheckedChange={(v) => setConsent(v === true)} className="mt-0.5" aria-label="I agree" />
                    <span>I have read this agreement and I sign it. I understand that my name, the time, my network address and browser are recorded with it.</span>
                  </label>
                  {sign.isError ? (
                    <p role="alert" className="text-sm text-destructive-soft">
                      {errorMessage(sign.error)}
                    </p>
                  ) : null}
                  <Button onClick={() => sign.mutate({ name: name.trim(), consent: true })} disabled={!nameOk || !consent || sign.isPending}>
                    Sign the agreement
                  </Button>
                </div>
              )}
            </>
          ) : null}
        </CardContent>
      </Card>
    </main>
  );
}
