import { useFieldArray } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { OWNERS_MAX, OWNER_NAME_MAX, OWNER_ROLES, OWNER_ROLE_LABELS, RIGHTS_MESSAGES, shareHundredths } from '@shared/rights';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { cn } from '@client/lib/utils';
import type { WizardForm } from './wizard-form';

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background/60 px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The song's owners (CONTRACT §22): a compact split sheet, the artist first and prefilled, with a
 * running total that must reach 100%. An owner with an email signs through an emailed link once the
 * label approves; one without is signed for by the artist, who confirms holding their consent.
 */
export function OwnersEditor({ form }: { form: WizardForm }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'owners' });
  const owners = form.watch('owners');
  const total = owners.reduce((sum, o) => sum + (Number.isFinite(o.share) ? shareHundredths(o.share) : 0), 0) / 100;
  const complete = total === 100;
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-background/40 p-4" data-testid="owners-editor">
      <legend className="px-1 text-sm font-medium">Who owns this song?</legend>
      <p className="text-xs text-muted-foreground">
        Everyone who holds a share of the song: writers, producers, featured artists. Each owner signs the licence once we approve it;
        give an email and they sign from a link, no account needed.
      </p>
      <ul className="grid gap-3">
        {fields.map((field, index) => (
          <li key={field.id} className="grid grid-cols-2 gap-2 rounded-md border border-border/60 p-3 sm:grid-cols-[1.4fr_1.4fr_1fr_5.5rem_auto] sm:items-end sm:border-0 sm:p-0">
            <label className="col-span-2 grid gap-1 text-xs text-muted-foreground sm:col-span-1">
              Name
              <Input
                aria-label={`Owner ${index + 1} name`}
                maxLength={OWNER_NAME_MAX}
                autoComplete="off"
                {...form.register(`owners.${index}.name` as const)}
              />
            </label>
            {index === 0 ? (
              // The artist signs in their account: no address to give, so no field, only what happens.
              <div className="col-span-2 grid gap-1 text-xs text-muted-foreground sm:col-span-1">
                <span>Signs</span>
                <p className="flex min-h-10 items-center text-sm text-foreground/80" data-testid="owner-1-signs">
                  You, in your account
                </p>
              </div>
            ) : (
              <label className="col-span-2 grid gap-1 text-xs text-muted-foreground sm:col-span-1">
                Email (optional)
                <Input
                  aria-label={`Owner ${index + 1} email`}
                  type="email"
                  autoComplete="off"
                  placeholder="name@example.com"
                  {...form.register(`owners.${index}.email` as const)}
                />
              </label>
            )}
            <label className="grid gap-1 text-xs text-muted-foreground">
              Role
              <select aria-label={`Owner ${index + 1} role`} className={selectClass} {...form.register(`owners.${index}.role` as const)}>
                {OWNER_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {OWNER_ROLE_LABELS[role]}
                  </option>
                ))}
              </select>
            </label>
            <label className="grid gap-1 text-xs text-muted-foreground">
              Share %
              <Input
                aria-label={`Owner ${index + 1} share`}
                type="number"
                inputMode="decimal"
                min={0.01}
                max={100}
                step={0.01}
                {...form.register(`owners.${index}.share` as const, { valueAsNumber: true })}
              />
            </label>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove owner ${index + 1}`}
              disabled={index === 0}
              onClick={() => remove(index)}
              className={cn('col-span-2 justify-self-end sm:col-span-1', index === 0 && 'max-sm:hidden sm:invisible')}
            >
              <Trash2 className="size-4" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={fields.length >= OWNERS_MAX}
          onClick={() => append({ name: '', email: '', role: 'writer', share: Math.max(0, Math.round((100 - total) * 100) / 100) })}
        >
          <Plus className="size-4" aria-hidden /> Add an owner
        </Button>
        <p className={cn('text-sm font-medium', complete ? 'text-muted-foreground' : 'text-destructive-soft')} role="status" data-testid="owners-total">
          Total {Number.isFinite(total) ? total : 0}%{complete ? '' : ` — ${RIGHTS_MESSAGES.sharesTotal}`}
        </p>
      </div>
    </fieldset>
  );
}
