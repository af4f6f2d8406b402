import { expect, test, type Page } from '@playwright/test';
import { CHECKOUT_TEXTS } from '../../src/client/features/payments/checkout-texts';
import { createSubmission, FAKE_STRIPE_JS, registerArtist, shoot } from './fixtures';

/**
 * Browser journeys of the checkout, /payment-success and /payment-failure (SPEC §2, §4, §8;
 * CONTRACT §6). The e2e server runs without Stripe keys and the browser has no network, so
 * Stripe's hosted script is replaced by a small stand-in served at its address with page.route():
 * it renders a placeholder card field and answers confirmPayment as each test decides. Server
 * side, payments are covered against a Stripe-compatible server in src/server/features/payments.
 */

type Tier = 'free' | 'basic' | 'premium' | 'professional';

/** Signs up a new artist through the API; the page's context holds the session. */
const signUp = (page: Page) => registerArtist(page, { prefix: 'payer' });

/** A submission made the way the wizard makes it (POST /api/submissions); returns its id. */
const submit = (page: Page, pricingTier: Tier) =>
  createSubmission(page.request, { musicUrl: 'https://example.com/night-drive', artistName: 'Nora Vex', pricingTier });

const orderId = (id: string) => id.slice(-8).toUpperCase();
/** Toast texts, matched exactly inside the notifications region (a page heading may say the same). */
const toastText = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true }).first();


/** Payments "configured" in the browser: a publishable key, an intent, and the Stripe.js stand-in. */
async function fakeStripe(page: Page, confirmResult: unknown): Promise<void> {
  await page.route('**/api/config', (route) =>
    route.fulfill({ json: { stripePublishableKey: 'pk_test_e2e', googleEnabled: false } }),
  );
  await page.route('**/api/create-payment-intent', (route) =>
    route.fulfill({ json: { clientSecret: 'pi_e2e_secret_e2e' } }),
  );
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: FAKE_STRIPE_JS }),
  );
  await page.addInitScript((result) => {
    (window as unknown as { __confirmResult: unknown }).__confirmResult = result;
  }, confirmResult);
}

test.describe('checkout', () => {
  test('shows the order summary and "Payment Configuration Required" without Stripe keys', async ({ page }) => {
    await signUp(page);
    const id = await submit(page, 'premium');
    await page.goto(`/checkout/${id}`);

    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await expect(summary.getByText(`#${orderId(id)}`)).toBeVisible();
    await expect(summary.getByText('Premium', { exact: true })).toBeVisible();
    await expect(page.getByTestId('order-total')).toHaveText('$99.00 USD');
    await expect(page.getByRole('heading', { name: 'Payment Configuration Required' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  });

  test('says "Submission Not Found" for an unknown or foreign id, with a way back', async ({ page }) => {
    await signUp(page);
    await page.goto('/checkout/not-a-real-submission');
    await expect(page.getByRole('heading', { name: 'Submission Not Found' })).toBeVisible();
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('sends a free submission to /', async ({ page }) => {
    await signUp(page);
    const id = await submit(page, 'free');
    await page.goto(`/checkout/${id}`);
    await expect(page).toHaveURL(/\/$/);
  });

  test('pays the real price of the tier; a declined card shows the provider message and /payment-failure', async ({ page }) => {
    await fakeStripe(page, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    await signUp(page);
    const id = await submit(page, 'professional');
    await page.goto(`/checkout/${id}`);

    await expect(page.getByTestId('order-total')).toHaveText('$199.00 USD');
    await expect(page.getByTestId('fake-card-field')).toBeVisible();
    const pay = page.getByRole('button', { name: 'Pay $199.00' });
    await expect(pay).toBeEnabled();
    await pay.click();

    await expect(page).toHaveURL(new RegExp(`/payment-failure\\?submission=${id}$`));
    await expect(toastText(page, 'Payment Failed')).toBeVisible();
    await expect(toastText(page, 'Your card was declined.')).toBeVisible();
    const sent = await page.evaluate(() => (window as unknown as { __confirmOptions: unknown }).__confirmOptions);
    const origin = new URL(page.url()).origin;
    expect(sent).toEqual({ returnUrl: `${origin}/payment-success?submission=${id}`, redirect: 'if_required' });
  });

  test('after paying, /payment-success waits for Stripe\'s confirmation before claiming success', async ({ page }) => {
    await fakeStripe(page, { paymentIntent: { id: 'pi_e2e', status: 'succeeded' } });
    await signUp(page);
    const id = await submit(page, 'basic');
    await page.goto(`/checkout/${id}`);
    await page.getByRole('button', { name: 'Pay $49.00' }).click();

    await expect(page).toHaveURL(new RegExp(`/payment-success\\?submission=${id}&payment_intent=pi_e2e$`));
    await expect(toastText(page, 'Payment Successful')).toBeVisible();
    // No signed webhook reached the server, so the submission is not paid and the page says so.
    await expect(page.getByRole('heading', { name: 'Confirming your payment' })).toBeVisible();
    await expect(page.getByText(`#${orderId(id)}`)).toBeVisible();
    await expect(page.getByText('$49.00 USD')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toHaveCount(0);
  });

  test('says so when the payment form cannot be loaded', async ({ page }) => {
    await fakeStripe(page, {});
    // A blocker extension: Stripe's script never arrives, until it is allowed.
    let blocked = true;
    await page.route('https://js.stripe.com/**', (route) => (blocked ? route.abort() : route.fallback()));
    await signUp(page);
    const id = await submit(page, 'premium');
    await page.goto(`/checkout/${id}`);
    // What failed, its usual cause and what to do (issue 43 item 11), not "Failed to initialize payment".
    const failed = page.getByTestId('checkout-failed');
    await expect(failed.getByRole('heading', { name: CHECKOUT_TEXTS.cardFormFailedTitle })).toBeVisible();
    await expect(failed).toContainText('blocker');
    await expect(failed.getByRole('link', { name: CHECKOUT_TEXTS.contact })).toHaveAttribute('href', /\/messages/);
    await expect(page.getByText('Failed to initialize payment')).toHaveCount(0);
    await shoot(page, 'test-results/checkout', 'card-form-failed');
    // Unblocked, "Try again" loads the card form.
    blocked = false;
    await failed.getByRole('button', { name: CHECKOUT_TEXTS.retry }).click();
    await expect(page.getByRole('button', { name: 'Pay $99.00' })).toBeVisible();
  });
});

test.describe('payment result pages', () => {
  test('/payment-success shows the real order id and amount, and the receipt download', async ({ page }) => {
    await signUp(page);
    const id = await submit(page, 'premium');
    // The receipt as the server gives it once Stripe's signed event has marked the payment succeeded.
    await page.route(`**/api/payments/${id}/receipt`, (route) =>
      route.fulfill({
        json: {
          submissionId: id,
          orderId: orderId(id),
          songTitle: 'Night Drive',
          artistName: 'Nora Vex',
          tier: 'premium',
          tierName: 'Premium',
          amount: '99.00',
          currency: 'usd',
          paymentStatus: 'succeeded',
          paidAt: '2026-03-02T14:05:00.000Z',
          // As long as Stripe's own ids.
          paymentId: 'pi_3QxRtL2eZvKu8NbW1c4dE9fG',
          includes: ['DIY Edit Plan: 80 clips', '7-day delivery'],
        },
      }),
    );
    await page.goto(`/payment-success?submission=${id}`);
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(page.getByText(`#${orderId(id)}`)).toBeVisible();
    await expect(page.getByText('$99.00 USD')).toBeVisible();
    await expect(page.getByText('pi_3QxRtL2eZvKu8NbW1c4dE9fG')).toBeVisible();
    // On a phone the id goes under its term whole: one line, never broken mid-token (issue 43).
    await page.setViewportSize({ width: 390, height: 844 });
    const paymentId = page.getByTestId('payment-id');
    await expect.poll(async () => (await paymentId.boundingBox())?.height).toBeLessThan(24);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('link', { name: 'Download Receipt' })).toHaveAttribute(
      'href',
      `/api/payments/${id}/receipt/download`,
    );
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('/payment-success without a payment to show says so', async ({ page }) => {
    await signUp(page);
    await page.goto('/payment-success');
    await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
  });

  test('/payment-failure lists common solutions, and Try Again, Contact Support and the return button work', async ({ page }) => {
    await signUp(page);
    const id = await submit(page, 'premium');
    await page.goto(`/checkout/${id}`);
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    await page.goto(`/payment-failure?submission=${id}`);

    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Common solutions' })).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveCount(5);

    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/${id}$`));

    await page.goto(`/payment-failure?submission=${id}`);
    // The label team's conversation, about this order (CONTRACT §18).
    await page.getByRole('link', { name: 'Contact Support' }).click();
    await expect(page).toHaveURL(new RegExp(`/messages\\?with=team&submission=${id}$`));
    await expect(page.getByTestId('chat-title')).toHaveText('The label team');

    await page.goto('/payment-failure');
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
