import { useState } from 'react';
import { CheckCircle2, Download } from 'lucide-react';
import { PRODUCT_NAME } from '@shared/brand';
import { OWNER_ROLE_LABELS, SIGNING_TEXTS } from '@shared/rights-texts';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { errorCodeOf, errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AgreementView } from '@client/entities/submission/agreement-view';
import { SignatureFields, typedNameOk } from '@client/entities/submission/signature-fields';
import { signedCopyUrl, useSignByLink, useSigningLink } from '@client/entities/submission/rights-queries';

/**
 * /sign/{token}: a co-owner's single-use link from their email (CONTRACT §22). They read the
 * agreement (part of the page, not a box scrolling inside it) and the consent to electronic
 * records, and sign with their typed name, no account needed; then they keep a copy: it is
 * emailed, and the thank-you offers it for download with the link just used (for an hour). A
 * used or expired link says so.
 */
export function SignPage({ token }: { token: string }) {
  useDocumentTitle('Sign the licence agreement');
  const link = useSigningLink(token);
  const sign = useSignByLink(token);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const view = link.data;
  const gone = errorCodeOf(link.error) === 'signing_link_gone';
  const nameOk = typedNameOk(name);
  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-2xl px-3 py-6 sm:px-4 sm:py-10">
      <Card className="w-full self-start">
        <CardHeader>
          <CardTitle>{view ? `Licence agreement: ${view.songTitle}` : 'Licence agreement'}</CardTitle>
          <CardDescription data-testid="sign-page-label">{view ? `${view.labelName} · through ${PRODUCT_NAME}` : PRODUCT_NAME}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {link.isLoading ? <Spinner label="Loading the agreement" /> : null}
          {/* After signing, a refetch (a tab brought back) reads 410: the page keeps what it showed. */}
          {link.isError && !view ? (
            <p role="alert" className="text-sm">
              {gone ? 'This signing link was already used or has expired. If you still need to sign, ask the artist to contact the label.' : errorMessage(link.error)}
            </p>
          ) : null}
          {view ? (
            <>
              <p className="text-sm">
                You are named as an owner of this song: <strong>{view.owner.name}</strong>, {OWNER_ROLE_LABELS[view.owner.role].toLowerCase()},{' '}
                {view.owner.share}%. {sign.isSuccess ? null : 'Read the agreement, then sign it below.'}
              </p>
              {sign.isSuccess ? (
                <div role="status" className="grid gap-2 rounded-md border border-success/40 bg-success/10 p-3 text-sm" data-testid="signed-thanks">
                  <p className="flex items-center gap-2 font-medium">
                    <CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden /> {SIGNING_TEXTS.thanks}
                  </p>
                  <p>{SIGNING_TEXTS.copyEmailed}</p>
                  <Button asChild variant="outline" className="justify-self-start">
                    <a href={signedCopyUrl(token)} download>
                      <Download className="size-4" aria-hidden /> {SIGNING_TEXTS.copyDownload}
                    </a>
                  </Button>
                  <p className="text-xs text-muted-foreground">{SIGNING_TEXTS.copyDownloadHint}</p>
                </div>
              ) : null}
              <AgreementView agreement={view} reader="owner" contained={false} />
              {sign.isSuccess ? null : (
                <div className="grid gap-3 rounded-lg border bg-background/40 p-4">
                  <SignatureFields id="sign-name" disclosure={view.disclosure} name={name} onNameChange={setName} consent={consent} onConsentChange={setConsent} />
                  {sign.isError ? (
                    <p role="alert" className="text-sm text-destructive-soft">
                      {errorMessage(sign.error)}
                    </p>
                  ) : null}
                  <Button
                    onClick={() => sign.mutate({ name: name.trim(), consent: true, disclosureVersion: view.disclosure.version })}
                    disabled={!nameOk || !consent || sign.isPending}
                  >
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
