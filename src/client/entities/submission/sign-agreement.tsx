import { useState } from 'react';
import { FileSignature, Download } from 'lucide-react';
import type { Agreement } from '@shared/rights';
import { RIGHTS_TEXTS, SIGNING_TEXTS, awaitsArtistHand } from '@shared/rights-texts';
import type { Submission } from '@shared/submission-schemas';
import { Button } from '@client/components/ui/button';
import { Checkbox } from '@client/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { LoadingBlock } from '@client/components/loading-block';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { AgreementView } from './agreement-view';
import { agreementPdfUrl, useAgreement, useSignAgreement } from './rights-queries';
import { SignatureFields, typedNameOk } from './signature-fields';

/**
 * The artist's licence agreement on the dashboard (CONTRACT §22): once the submission is approved,
 * "Sign the licence agreement" until they have signed, then its state; the dialog shows the text,
 * takes the typed name and consent, and signs for owners without an email on their behalf.
 *
 * In the list, `asked` is what the list says (its item's `agreementAwaitsArtist`): the button shows
 * only while the agreement waits for the artist's hand, and the agreement is read when its dialog
 * opens, so a row reads nothing of its own (issue 50). The details leave `asked` out: they read the
 * agreement and show its state always.
 */
export function SignAgreementPrompt({ submission, asked }: { submission: Pick<Submission, 'id' | 'status' | 'songTitle'>; asked?: boolean }) {
  const inList = asked !== undefined;
  const [open, setOpen] = useState(false);
  const agreement = useAgreement(submission, { enabled: !inList || open });
  // (An open dialog stays open when its last signature is made: the artist sees it recorded.)
  if (inList ? !asked && !open : !agreement.data) return null;
  const own = agreement.data?.signatures[0];
  const needsMe = own?.signedAt === null;
  const onBehalfNames = agreement.data?.signatures.filter((s, i) => i > 0 && !s.hasEmail && !s.signedAt).map((s) => s.name) ?? [];
  const asks = agreement.data ? awaitsArtistHand(agreement.data.signatures) : asked === true;
  return (
    <>
      <Button
        size="sm"
        variant={asks ? 'default' : 'outline'}
        onClick={() => setOpen(true)}
        data-testid="agreement-button"
        aria-label={asks ? `${RIGHTS_TEXTS.signPrompt} of ${submission.songTitle}` : `Licence agreement of ${submission.songTitle}`}
      >
        <FileSignature className="size-4" aria-hidden />
        {asks ? RIGHTS_TEXTS.signPrompt : 'Licence agreement'}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>Licence agreement: {submission.songTitle}</DialogTitle>
            <DialogDescription>
              The label approved your song. Before it is published, every owner signs this licence: you here, the others from the link we
              email them.
            </DialogDescription>
          </DialogHeader>
          {agreement.data ? (
            <>
              <AgreementView agreement={agreement.data} />
              <SignForms submissionId={submission.id} agreement={agreement.data} needsMe={needsMe} onBehalfNames={onBehalfNames} />
            </>
          ) : agreement.isError ? (
            <p role="alert" className="text-sm text-destructive-soft">
              The agreement could not be loaded: {errorMessage(agreement.error)}
            </p>
          ) : (
            <LoadingBlock label="Loading the agreement" className="p-6" />
          )}
          <a className="inline-flex items-center gap-1.5 text-sm text-primary-soft underline-offset-4 hover:underline" href={agreementPdfUrl(submission.id)} download>
            <Download className="size-4" aria-hidden /> Download agreement.pdf
          </a>
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * The signing step: the typed name, the disclosure and the consent, and in the same step the
 * signature for the owners without an email (the artist holding their consent). Before the artist
 * signs it says who is emailed a link once they do: the links go out with the artist's signature.
 */
function SignForms({ submissionId, agreement, needsMe, onBehalfNames }: { submissionId: string; agreement: Agreement; needsMe: boolean; onBehalfNames: string[] }) {
  const sign = useSignAgreement(submissionId);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const [onBehalf, setOnBehalf] = useState(false);
  const [pending, setPending] = useState(false);
  const invitees = agreement.signatures.filter((s, i) => i > 0 && s.hasEmail && !s.signedAt).map((s) => s.name);
  const submit = async () => {
    const base = { name: name.trim(), consent: true as const, disclosureVersion: agreement.disclosure.version };
    setPending(true);
    try {
      if (needsMe) await sign.mutateAsync(base);
      if (onBehalf && onBehalfNames.length > 0) await sign.mutateAsync({ ...base, onBehalf: true });
      toast({ title: needsMe ? 'You signed the licence agreement' : 'Signed on their behalf', description: needsMe && onBehalf ? `Also signed for ${onBehalfNames.join(', ')}.` : undefined });
      setConsent(false);
      setOnBehalf(false);
    } catch (error) {
      toast({ title: 'Not signed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  const nameOk = typedNameOk(name);
  if (!needsMe && onBehalfNames.length === 0) {
    return invitees.length > 0 ? <p className="text-sm text-muted-foreground">{SIGNING_TEXTS.linksSent(invitees)}</p> : null;
  }
  const ready = nameOk && consent && (needsMe || onBehalf) && !pending;
  return (
    <div className="grid gap-3 rounded-lg border bg-background/40 p-4" data-testid="sign-forms">
      <SignatureFields id="agreement-name" disclosure={agreement.disclosure} name={name} onNameChange={setName} consent={consent} onConsentChange={setConsent} />
      {onBehalfNames.length > 0 ? (
        <label className="flex items-start gap-2 text-sm">
          <Checkbox checked={onBehalf} onCheckedChange={(v) => setOnBehalf(v === true)} className="mt-0.5" aria-label="I hold their written consent" />
          <span>{needsMe ? SIGNING_TEXTS.onBehalfAlso(onBehalfNames) : SIGNING_TEXTS.onBehalfOnly(onBehalfNames)}</span>
        </label>
      ) : null}
      {needsMe && invitees.length > 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="links-after-you">
          {SIGNING_TEXTS.linksAfterYou(invitees)}
        </p>
      ) : null}
      <Button onClick={() => void submit()} disabled={!ready}>
        {needsMe ? (onBehalf ? 'Sign for you and for them' : 'Sign the agreement') : 'Sign on their behalf'}
      </Button>
    </div>
  );
}
