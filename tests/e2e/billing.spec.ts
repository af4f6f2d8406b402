import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { DELETION_TEXTS } from '../../src/shared/account';
import { MONEY_CONFIRM_TEXTS, REFUND_REASON_TEXT, REJECTION_REFUND_PROMISE } from '../../src/shared/billing';
import { signedEvent } from '../../src/server/test/stripe-events';
import { startStripeStub, type StripeStub } from '../../src/server/test/stripe-stub';
import { animationsEnded, createSubmission, FAKE_STRIPE_JS, PASSWORD, shoot as shootAt, toastText, uniqueEmail } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Invoices, credit notes and the refund on rejection (CONTRACT §19), in the browser. This spec
 * runs a server of its own with Stripe pointed at the Stripe-compatible stub (its webhooks signed
 * with the stub's secret) and the seller configured; the browser gets the usual Stripe.js stand-in.
 */
const BASE = ownServerBase('billing');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results/billing-screens');
const WEBHOOK_SECRET = 'whsec_e2e_billing';
const ADMIN = { email: 'billing-admin@example.com', password: 'billing-admin-pass-1' };

let stripe: StripeStub;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stripe = await startStripeStub();
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('billing', {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_billing',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    LABEL_LEGAL_NAME: 'Nachtfalter Records GmbH',
    LABEL_ADDRESS: 'Torstraße 1\\n10119 Berlin',
    LABEL_TAX_ID: 'DE123456789',
    VAT_RATE: '19',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await stripe?.close();
});

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

/** A new artist, signed in on the page, with a name outside Latin-1 and a country for the invoice. */
async function register(page: Page): Promise<void> {
  const res = await page.request.post('/api/register', { data: { firstName: 'Zoë', lastName: 'Łukasiewicz', email: uniqueEmail('payer'), password: PASSWORD } });
  expect(res.status()).toBe(201);
  const profile = await page.request.put('/api/profile', { data: { artistName: 'Zoë Ł', country: 'Poland', instagramHandle: '@zoe' } });
  expect(profile.status()).toBe(200);
}

/** What Stripe does once the card payment of the submission's intent went through: the intent succeeds and its signed event is delivered. */
async function stripeConfirms(submissionId: string): Promise<string> {
  const intent = [...stripe.intents.values()].find((i) => i.metadata.submissionId === submissionId);
  expect(intent, 'the server opened an intent at the stub').toBeDefined();
  const paid = stripe.setIntent(intent!.id, { status: 'succeeded', amount_received: intent!.amount });
  const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid });
  const res = await fetch(`${BASE}/api/webhooks/stripe`, { method: 'POST', headers: event.headers, body: event.payload });
  expect(res.status).toBe(200);
  return intent!.id;
}

async function pdfTextOf(file: string): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(readFileSync(file)));
  return (await extractText(pdf, { mergePages: true })).text;
}

test('an artist pays and downloads the invoice from the billing page', async ({ page }) => {
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'application/javascript', body: FAKE_STRIPE_JS }));
  await page.addInitScript(() => {
    (window as unknown as { __confirmResult: unknown }).__confirmResult = { paymentIntent: { id: 'pi_e2e', status: 'succeeded' } };
  });
  await register(page);
  const id = await createSubmission(page.request, { pricingTier: 'premium', songTitle: 'Ночной город', artistName: 'Zoë Ł' });

  await page.goto(`/checkout/${id}`);
  await page.getByRole('button', { name: 'Pay $99.00' }).click();
  await stripeConfirms(id);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('link', { name: 'Download Invoice (PDF)' })).toHaveAttribute('href', `/api/submissions/${id}/invoice.pdf`);
  await shoot(page, 'payment-success');

  // From the account navigation: Settings, then Billing.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Settings' }).click();
  await shoot(page, 'settings');
  await page.getByRole('link', { name: 'Payments and invoices' }).click();
  await expect(page).toHaveURL(/\/settings\/billing$/);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  const payment = page.getByRole('listitem', { name: 'Payment for Ночной город' });
  await expect(payment).toContainText('$99.00');
  await expect(payment).toContainText('Premium');
  await expect(payment).toContainText('Paid');
  const invoiceLink = payment.getByRole('link', { name: /^Invoice INV-\d{4}-\d{6}$/ });
  await expect(invoiceLink).toBeVisible();
  await shoot(page, 'billing-paid');

  const [download] = await Promise.all([page.waitForEvent('download'), invoiceLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^INV-\d{4}-\d{6}\.pdf$/);
  const text = await pdfTextOf(await download.path());
  for (const expected of ['Invoice', download.suggestedFilename().replace('.pdf', ''), 'Nachtfalter Records GmbH', 'Zoë Łukasiewicz', 'Poland', 'Premium plan', 'Ночной город', '$99.00', 'VAT 19% (included)']) {
    expect(text).toContain(expected);
  }
});

test('the label rejects a paid, undelivered submission and the artist sees the refund and the credit note', async ({ page, browser }) => {
  await register(page);
  const songTitle = `Refunded ${Date.now()}`;
  const id = await createSubmission(page.request, { pricingTier: 'basic', songTitle });
  expect((await page.request.post('/api/create-payment-intent', { data: { submissionId: id } })).status()).toBe(200);
  const intentId = await stripeConfirms(id);

  // The label turns it down on the desk.
  const desk = await browser.newContext({ baseURL: BASE });
  const admin = await desk.newPage();
  expect((await admin.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await admin.goto('/admin');
  await admin.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  const row = admin.getByTestId('admin-submission-row').filter({ hasText: songTitle });
  await row.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  await dialog.getByRole('button', { name: 'Change status' }).click();
  const statusDialog = admin.getByRole('dialog', { name: 'Change Status' });
  await statusDialog.getByRole('combobox', { name: 'Status' }).click();
  await admin.getByRole('option', { name: 'Rejected' }).click();
  // Before it is confirmed, the dialog says the rejection refunds the payment (CONTRACT §21).
  await expect(statusDialog.getByTestId('rejection-refund')).toHaveText(MONEY_CONFIRM_TEXTS.rejectRefund('$49.00'));
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await admin.setViewportSize({ width, height });
    await expect(statusDialog.getByRole('button', { name: MONEY_CONFIRM_TEXTS.rejectRefundConfirm })).toBeInViewport();
    await admin.screenshot({ path: path.join(SHOTS, `rejection-refund-${width}.png`) });
  }
  await statusDialog.getByRole('button', { name: MONEY_CONFIRM_TEXTS.rejectRefundConfirm }).click();
  await expect(toastText(admin, 'Status Updated')).toBeVisible();
  await expect(admin.getByText(MONEY_CONFIRM_TEXTS.rejectedAndRefunded('$49.00'), { exact: false }).first()).toBeVisible();
  await desk.close();

  // One refund of the whole payment at Stripe.
  await expect.poll(() => [...stripe.refunds.values()].filter((r) => r.payment_intent === intentId).map((r) => r.amount)).toEqual([4900]);

  // The artist: the reason on the submission's details, and the credit note beside the invoice.
  // As the refund email's link opens it.
  await page.goto(`/dashboard?submission=${id}`);
  const details = page.getByRole('dialog');
  await expect(details.getByText(REFUND_REASON_TEXT.rejected)).toBeVisible();
  await expect(details.getByRole('link', { name: /^Credit note CN-\d{4}-\d{6}$/ })).toBeVisible();
  await expect(details.getByRole('link', { name: /^Invoice INV-\d{4}-\d{6}$/ })).toBeVisible();
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await details.getByRole('link', { name: /^Credit note/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `details-refunded-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/settings/billing');
  const payment = page.getByRole('listitem', { name: `Payment for ${songTitle}` });
  await expect(payment).toContainText('Refunded');
  await expect(payment).toContainText(REFUND_REASON_TEXT.rejected);
  const creditNote = payment.getByRole('link', { name: /^Credit note CN-\d{4}-\d{6}$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), creditNote.click()]);
  expect(download.suggestedFilename()).toMatch(/^CN-\d{4}-\d{6}\.pdf$/);
  const text = await pdfTextOf(await download.path());
  for (const expected of ['Credit note', '-$49.00', 'Cancels invoice: INV-']) expect(text).toContain(expected);
  await shoot(page, 'billing-refunded');
});

for (const [width, height] of [[1280, 800], [390, 844]] as const) {
  test(`withdrawing paid work at ${width}×${height}: the dialog names the refund, the submission goes, its documents stay`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await register(page);
    const songTitle = `Cinder Lights ${width}`;
    const id = await createSubmission(page.request, { pricingTier: 'premium', songTitle });
    expect((await page.request.post('/api/create-payment-intent', { data: { submissionId: id } })).status()).toBe(200);
    const intentId = await stripeConfirms(id);

    await page.goto('/dashboard');
    const row = page.getByTestId('submission-row').filter({ hasText: songTitle });
    await row.getByRole('button', { name: `Delete ${songTitle}` }).click();
    const dialog = page.getByRole('alertdialog', { name: MONEY_CONFIRM_TEXTS.withdrawTitle(songTitle) });
    await expect(dialog).toContainText(MONEY_CONFIRM_TEXTS.withdrawRefund('$99.00'));
    await expect(dialog.getByRole('button', { name: MONEY_CONFIRM_TEXTS.withdrawConfirm })).toBeInViewport();
    await page.screenshot({ path: path.join(SHOTS, `withdraw-confirm-${width}.png`) });
    // Cancelled: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId)).toEqual([]);

    await row.getByRole('button', { name: `Delete ${songTitle}` }).click();
    await dialog.getByRole('button', { name: MONEY_CONFIRM_TEXTS.withdrawConfirm }).click();
    await expect(toastText(page, 'Submission deleted')).toBeVisible();
    await expect(row).toHaveCount(0);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId).map((r) => r.amount)).toEqual([9900]);

    // The invoice and the credit note outlive the submission: listed on the billing page and downloadable by number.
    await page.goto('/settings/billing');
    const kept = page.getByRole('list', { name: 'Documents of deleted submissions' });
    await expect(kept.getByRole('link', { name: /^Invoice INV-\d{4}-\d{6}$/ })).toHaveCount(1);
    const creditNote = kept.getByRole('link', { name: /^Credit note CN-\d{4}-\d{6}$/ });
    await expect(creditNote).toHaveCount(1);
    // The credit note's amount reads as money back, not as a second charge (issue 43).
    await expect(kept.getByRole('listitem').filter({ hasText: /^Credit note/ }).getByTestId('document-amount')).toHaveText('-$99.00 refunded');
    await expect(kept.getByRole('listitem').filter({ hasText: /^Invoice/ }).getByTestId('document-amount')).toHaveText('$99.00');
    await page.screenshot({ path: path.join(SHOTS, `withdrawn-billing-${width}.png`), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), creditNote.click()]);
    const text = await pdfTextOf(await download.path());
    for (const expected of ['Credit note', '-$99.00', songTitle]) expect(text).toContain(expected);
  });
}

test('the plan step says, before payment, that a rejected paid submission is refunded', async ({ page }) => {
  await register(page);
  const draft = await page.request.post('/api/submissions/drafts', {
    data: { submissionMethod: 'link', musicUrl: 'https://example.com/track', artistName: 'Zoë Ł', songTitle: 'Plan step', releaseStatus: 'unreleased', hasLyrics: false, aiUsage: false, videoStyle: 'non-custom', pricingTier: 'premium', draftStep: 4 },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const { id } = (await draft.json()) as { id: string };
  await page.goto(`/submit?draft=${id}`);
  await expect(page.getByText(REJECTION_REFUND_PROMISE)).toBeVisible();
  await shoot(page, 'plan-step');
  await page.goto('/terms-of-service#paid-plans');
  await expect(page.getByText(REJECTION_REFUND_PROMISE)).toBeVisible();
});

test('deleting an account with paid, undelivered work names the refund in the dialog before it is confirmed, then refunds it', async ({ page }) => {
  await register(page);
  const songTitle = `Leaving ${Date.now()}`;
  const id = await createSubmission(page.request, { pricingTier: 'basic', songTitle });
  expect((await page.request.post('/api/create-payment-intent', { data: { submissionId: id } })).status()).toBe(200);
  const intentId = await stripeConfirms(id);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings/delete-account');
  await expect(page.getByRole('list', { name: 'What we delete' })).toContainText('refunded in full to your card');
  await expect(page.getByText(DELETION_TEXTS.refundNotice('$49.00'), { exact: true })).toBeVisible();
  await shoot(page, 'delete-account-refund');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: DELETION_TEXTS.confirm }).click();
  const dialog = page.getByRole('alertdialog', { name: DELETION_TEXTS.confirmTitle });
  await expect(dialog).toContainText(DELETION_TEXTS.refundNotice('$49.00'));
  await animationsEnded(page);
  await page.screenshot({ path: `${SHOTS}/delete-account-refund-dialog-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByText(DELETION_TEXTS.refundNotice('$49.00'))).toBeInViewport();
  await expect(dialog.getByRole('button', { name: DELETION_TEXTS.confirm })).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/delete-account-refund-dialog-390.png` });
  expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId)).toEqual([]);

  await dialog.getByRole('button', { name: DELETION_TEXTS.confirm }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect([...stripe.refunds.values()].filter((r) => r.payment_intent === intentId).map((r) => r.amount)).toEqual([4900]);
  expect((await page.request.get('/api/user')).status()).toBe(401);
});
