import type { PublicUser } from '@shared/auth';
import { NOTIFICATION_PREFERENCES, NOTIFICATION_PREFERENCE_TEXTS } from '@shared/notifications';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Checkbox } from '@client/components/ui/checkbox';
import { Label } from '@client/components/ui/label';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useNotificationSettings, useSaveNotificationSettings } from './notification-queries';

/**
 * The email preferences (CONTRACT §10), a section of its own so the account settings screen can
 * hold it. Each box saves as it is ticked. The digest is for the team only.
 */
export function NotificationSettingsSection({ user }: { user: PublicUser }) {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const preferences = NOTIFICATION_PREFERENCES.filter((p) => !NOTIFICATION_PREFERENCE_TEXTS[p].adminOnly || user.role === 'admin');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Email notifications</CardTitle>
        <CardDescription>
          Choose which emails you get. Account emails (confirming your address) and payment receipts always go out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <Spinner />
        ) : settings.isError ? (
          <p className="text-sm text-destructive">{errorMessage(settings.error)}</p>
        ) : (
          <ul className="grid gap-4">
            {preferences.map((preference) => {
              const text = NOTIFICATION_PREFERENCE_TEXTS[preference];
              const id = `notify-${preference}`;
              return (
                <li key={preference} className="flex items-start gap-3">
                  <Checkbox
                    id={id}
                    checked={settings.data[preference]}
                    disabled={save.isPending}
                    aria-describedby={`${id}-description`}
                    onCheckedChange={(checked) =>
                      save.mutate(
                        { [preference]: checked === true },
                        {
                          onSuccess: () => toast({ title: 'Preferences saved' }),
                          onError: (error) => toast({ title: 'Could not save', description: errorMessage(error), variant: 'destructive' }),
                        },
                      )
                    }
                  />
                  <div className="grid gap-1">
                    <Label htmlFor={id}>{text.label}</Label>
                    <p id={`${id}-description`} className="text-sm text-muted-foreground">
                      {text.description}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
