import { useSearch } from 'wouter';
import { PRODUCT_NAME } from '@shared/brand';
import { NOTIFICATION_PREFERENCE_TEXTS } from '@shared/notification-texts';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useUnsubscribe } from './notification-queries';

/**
 * /unsubscribe?token=…: the link in an email's footer. Opening it changes nothing (mail scanners
 * open links); the button does, signed in or not.
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const unsubscribe = useUnsubscribe();

  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-md place-items-center px-4">
      <Card className="w-full">
        <CardHeader>
          <CardTitle>Email preferences</CardTitle>
          <CardDescription>{PRODUCT_NAME}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {unsubscribe.isSuccess ? (
            <p role="status">
              Done: you will no longer get “{NOTIFICATION_PREFERENCE_TEXTS[unsubscribe.data.preference].label}” emails. You can turn them
              back on under Settings.
            </p>
          ) : (
            <>
              <p>Stop getting this kind of email from us?</p>
              {unsubscribe.isError ? (
                <p role="alert" className="text-sm text-destructive">
                  {errorMessage(unsubscribe.error)}
                </p>
              ) : null}
              <Button disabled={!token || unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
                Unsubscribe
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
