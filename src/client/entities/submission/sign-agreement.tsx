import { useState } from 'react';
import { FileSignature, Download } from 'lucide-react';
import type { Agreement } from '@shared/rights';
import { RIGHTS_TEXTS, SIGNING_TEXTS } from '@shared/rights-texts';
import type { Submission } from '@shared/submission-schemas';
import { Button } from '@client/components/ui/button';
import { Checkbox } from '@client/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { AgreementView } from './agreement-view';
import { agreementPdfUrl, useAgreement, useSignAgreement } from './rights-queries';
import { SignatureFields, typedNameOk } from './signature-fields';

/**
 * The artist's licence agreement on the dashboard (CONTRACT §22): once the submission is approved,
 * "Sign the licence agreement" until they have signed, then its state; the dialog shows the text,
 * takes the typed name and consent, and signs for owners without an email on their behalf.
 */
export function SignAgreementPrompt({ submission, onlyWhenAsked = false }: { submission: Pick<Submission, 'id' | 'status' | 'songTitle'>; onlyWhenAsked?: boolean }) {
  const agreement = useAgreement(submission);
  const [open, setOpen] = useState(false);
  if (!agreement.data) return null;
  const own = agreement.data.signatures[0];
  const needsMe = own?.signedAt === null;
  const onBehalfNames = agreement.data.signatures.filter((s, i) => i > 0 && !s.hasEmail && !s.signedAt).map((s) => s.name);
  // In the list, only what asks for the artist's hand; the details show it always.
  // (An open dialog stays open when its last signature is made: the artist sees it recorded.)
  if (onlyWhenAsked && !needsMe && onBehalfNames.length === 0 && !open) return null;
  return (
    <>
      <Button
        size="sm"
        variant={needsMe || onBehalfNames.length > 0 ? 'default' : 'outline'}
        onClick={() => setOpen(true)}
        data-testid="agreement-button"
        aria-label={needsMe || onBehalfNames.length > 0 ? `${RIGHTS_TEXTS.signPrompt} of ${submission.songTitle}` : `Licence agreement of ${submission.songTitle}`}
      >
        <FileSignature className="size-4" aria-hidden />
        {needsMe || onBehalfNames.length > 0 ? RIGHTS_TEXTS.signPrompt : 'Licence agreement'}
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
          <AgreementView agreement={agreement.data} />
          <SignForms submissionId={submission.id} agreement={agreement.data} needsMe={needsMe} onBehalfNames={onBehalfNames} />
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
