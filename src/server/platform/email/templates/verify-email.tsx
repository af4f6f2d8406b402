import { PRODUCT_NAME } from '@shared/brand';
import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from './template';

/** The link is made when the email is sent (see email-verification.ts), never stored in the outbox. */
export interface VerifyEmailData {
  firstName: string | null;
  verifyUrl: string;
}

export const verifyEmail: EmailTemplate<VerifyEmailData> = {
  preference: null,
  subject: () => `Confirm your email address for ${PRODUCT_NAME}`,
  body: (data) => (
    <EmailLayout
      preview="Confirm your email address"
      heading="Confirm your email address"
      action={{ label: 'Confirm my email', url: data.verifyUrl }}
    >
      <Paragraph>Hi{data.firstName ? ` ${data.firstName}` : ''},</Paragraph>
      <Paragraph>
        Please confirm that this is your email address, so we can reach you about your submissions. The link is valid
        for 24 hours.
      </Paragraph>
      <Paragraph>If you did not create an account, you can ignore this email.</Paragraph>
    </EmailLayout>
  ),
};
