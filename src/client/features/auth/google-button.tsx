import { LogIn } from 'lucide-react';
import { continueWith } from '@shared/auth-texts';
import { Button } from '@client/components/ui/button';
import { usePublicConfig } from '@client/lib/public-config';
import { OrDivider } from './or-divider';

/**
 * 'Continue with {provider}' and the divider under it, only where sign-in with an OpenID provider
 * is configured (GET /api/config): elsewhere the button could only lead to an error. The provider
 * is named as configured (CONTRACT §23: any standard provider; Google's logo only for Google). A
 * full page navigation: the server answers with a redirect to the provider (CONTRACT §3).
 */
export function GoogleSignIn() {
  const config = usePublicConfig();
  if (!config.data?.googleEnabled) return null;
  const provider = config.data.signInProvider ?? 'Google';
  return (
    <>
      <Button asChild variant="outline" className="w-full">
        <a href="/api/auth/google">
          {provider === 'Google' ? <GoogleLogo /> : <LogIn aria-hidden />}
          {continueWith(provider)}
        </a>
      </Button>
      <OrDivider />
    </>
  );
}

function GoogleLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden focusable="false">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}
