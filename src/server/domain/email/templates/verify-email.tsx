import { PRODUCT_NAME } from '@shared/brand';
import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';

/** The link is made when the email is sent (emailed-links.ts), never stored in the outbox. */
export interface VerifyEmailData {
  firstName: string | null;
  verifyUrl: string;
  /** True when the link confirms a new address the account is changing to. */
  change?: boolean;
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
      {data.change ? (
        <Paragraph>
          You asked to use this address for your account. Your email address changes when you open the link, which is
          valid for 24 hours.
        </Paragraph>
      ) : (
        <Paragraph>
          Please confirm that this is your email address, so we can reach you about your submissions. The link is valid
          for 24 hours.
        </Paragraph>
      )}
      <Paragraph>
        {data.change ? 'If you did not ask for this, you can ignore this email.' : 'If you did not create an account, you can ignore this email.'}
      </Paragraph>
    </EmailLayout>
  ),
};
