import { PRODUCT_NAME } from '@shared/brand';
import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';

/** The link is made when the email is sent (emailed-links.ts), never stored in the outbox. */
export interface PasswordResetData {
  firstName: string | null;
  resetUrl: string;
}

export const passwordReset: EmailTemplate<PasswordResetData> = {
  preference: null,
  subject: () => `Choose a new password for ${PRODUCT_NAME}`,
  body: (data) => (
    <EmailLayout preview="Choose a new password" heading="Choose a new password" action={{ label: 'Choose a new password', url: data.resetUrl }}>
      <Paragraph>Hi{data.firstName ? ` ${data.firstName}` : ''},</Paragraph>
      <Paragraph>
        Someone asked to reset the password of your account. The link works once, for one hour. Choosing a new password
        signs you out on every device.
      </Paragraph>
      <Paragraph>If it was not you, you can ignore this email: your password stays as it is.</Paragraph>
    </EmailLayout>
  ),
};
