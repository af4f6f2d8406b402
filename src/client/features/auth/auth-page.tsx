import { AlertCircle, Clapperboard, TrendingUp, Type } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSearch } from 'wouter';
import { GOOGLE_ERRORS, UNNAMED_PROVIDER, type GoogleErrorCode } from '@shared/auth-texts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { usePublicConfig } from '@client/lib/public-config';
import { GenreStrip } from './genre-strip';
import { LoginForm } from './login-form';
import { ProductMark } from './product-mark';
import { RegisterForm } from './register-form';

export function AuthPage() {
  useDocumentTitle('Sign in');
  const googleError = useGoogleError();
  // The label's own name (LABEL_LEGAL_NAME): an artist should know whom they send their music to.
  const labelName = usePublicConfig().data?.labelName ?? null;

  return (
    <div className="relative min-h-dvh overflow-x-hidden bg-background">
      <Backdrop />
      {/* Bottom padding keeps the fixed genre strip (small tablets up) from covering the forms. */}
      <div className="relative mx-auto flex w-full max-w-6xl flex-col px-4 pt-6 pb-10 sm:px-6 sm:pb-28 lg:px-8">
        <ProductMark />

        <main className="mt-10 grid gap-10 lg:mt-16 lg:grid-cols-[1fr_minmax(0,28rem)] lg:gap-x-16 lg:gap-y-8">
          <section aria-labelledby="auth-headline" className="flex flex-col gap-5 lg:col-start-1 lg:row-start-1 lg:pt-6">
            <p className="text-sm font-medium tracking-wide text-primary-soft" data-testid="label-name">
              {labelName ? `${labelName} · ` : ''}For artists of dark and atmospheric music
            </p>
            <h1 id="auth-headline" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl lg:text-5xl">
              Your track. Our video. <span className="text-primary-soft">Your name in the title.</span>
            </h1>
            <p className="max-w-xl text-base text-pretty text-muted-foreground sm:text-lg">
              Submit a song or a finished video to {labelName ?? 'the label'}. If our team approves your track, we make its music video for free and
              publish it on our channel with your artist name in the title and your links in the description.
            </p>
          </section>

          <div className="flex flex-col gap-4 lg:col-start-2 lg:row-span-2 lg:row-start-1">
            {googleError ? (
              <div role="alert" className="flex items-start gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm">
                <AlertCircle className="mt-0.5 size-4 shrink-0 text-destructive-soft" aria-hidden />
                <p className="text-foreground">{googleError}</p>
              </div>
            ) : null}
            <Card className="border-border/80 bg-card/90 shadow-2xl shadow-black/40 backdrop-blur">
              <CardHeader className="pb-4">
                <CardTitle className="text-xl">Welcome</CardTitle>
                <CardDescription>Sign in to submit your music, or create your artist account.</CardDescription>
              </CardHeader>
              <CardContent>
                <Tabs defaultValue="sign-in">
                  <TabsList className="grid w-full grid-cols-2">
                    <TabsTrigger value="sign-in">Sign In</TabsTrigger>
                    <TabsTrigger value="create-account">Create Account</TabsTrigger>
                  </TabsList>
                  <TabsContent value="sign-in">
                    <LoginForm />
                  </TabsContent>
                  <TabsContent value="create-account">
                    <RegisterForm />
                  </TabsContent>
                </Tabs>
              </CardContent>
            </Card>
            <p className="px-2 text-center text-xs leading-relaxed text-muted-foreground">
              By continuing you agree to our <LegalLink href="/terms-of-service">Terms of Service</LegalLink> and{' '}
              <LegalLink href="/privacy-policy">Privacy Policy</LegalLink>.
            </p>
          </div>

          <ul aria-label="Why artists submit to us" className="grid gap-4 sm:grid-cols-3 lg:col-start-1 lg:row-start-2 lg:grid-cols-1 lg:self-start">
            <Benefits />
          </ul>
        </main>
      </div>
      <GenreStrip />
    </div>
  );
}

/** The explanation of `?error=<code>` after a failed sign-in with the OpenID provider, named as configured (CONTRACT §3, §23). */
function useGoogleError(): string | null {
  const code = new URLSearchParams(useSearch()).get('error');
  const provider = usePublicConfig().data?.signInProvider ?? UNNAMED_PROVIDER;
  if (!code) return null;
  return (Object.hasOwn(GOOGLE_ERRORS, code) ? GOOGLE_ERRORS[code as GoogleErrorCode] : GOOGLE_ERRORS.failed)(provider);
}

function LegalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-primary-soft underline underline-offset-2 outline-none hover:text-foreground focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </a>
  );
}

const BENEFITS = [
  {
    icon: Type,
    title: 'Your name in the title',
    text: 'Every video we publish carries your artist name in its title and your social links in its description, so new listeners can follow you.',
  },
  {
    icon: Clapperboard,
    title: 'Made together',
    text: 'Work with our team on the creation and editing of your video, by message, from the first idea to the final cut.',
  },
  {
    icon: TrendingUp,
    title: 'The viral bonus',
    text: 'After 3 viral hits you earn money for every track we publish. A hit is viral when its views reach half our subscriber count within 14 days.',
  },
] as const;

function Benefits() {
  return BENEFITS.map(({ icon: Icon, title, text }) => (
    <li key={title} className="flex gap-4 rounded-xl border border-border/70 bg-card/60 p-4 sm:flex-col lg:flex-row">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="grid gap-1">
        <h2 className="text-sm font-semibold">{title}</h2>
        <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
      </div>
    </li>
  ));
}

/** A quiet violet glow behind the content; decorative only. */
function Backdrop() {
  return (
    <div aria-hidden className="pointer-events-none absolute inset-0 overflow-hidden">
      <div className="absolute -top-40 left-1/2 h-[36rem] w-[56rem] -translate-x-1/2 rounded-full bg-primary/15 blur-3xl" />
      <div className="absolute top-1/2 -right-40 h-96 w-96 rounded-full bg-fuchsia-900/20 blur-3xl" />
    </div>
  );
}
