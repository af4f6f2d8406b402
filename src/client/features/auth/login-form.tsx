import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { loginSchema } from '@shared/auth';
import { FormField } from '@client/components/ui/form-field';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { useLoginMutation } from './auth-mutations';
import { GoogleButton } from './google-button';
import { OrDivider } from './or-divider';
import { PasswordInput } from './password-input';

export function LoginForm() {
  const login = useLoginMutation();
  const form = useForm({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  // Stays busy after success too, while the browser loads /dashboard.
  const busy = login.isPending || login.isSuccess;

  return (
    <div className="grid gap-5">
      <GoogleButton />
      <OrDivider />
      <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((values) => login.mutate(values))}>
        <FormField id="login-email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField id="login-password" label="Password" error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" placeholder="Your password" {...form.register('password')} />
        </FormField>
        <Button type="submit" className="mt-1 w-full" disabled={busy}>
          {busy ? (
            <>
              <Spinner className="text-primary-foreground" />
              Signing in...
            </>
          ) : (
            'Sign in'
          )}
        </Button>
      </form>
    </div>
  );
}
