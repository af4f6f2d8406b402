// Each component from its own package: @react-email/components would also load Tailwind and a
// code highlighter that no email uses, seconds of start-up on a loaded machine (decision 180).
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '@shared/brand';

/**
 * The frame every email shares: the product's name, one heading, the body, one button into the
 * product, and the footer (why you get this, the one-click way to stop it). Inline styles and
 * a single 560 px column, because that is what renders alike in Gmail, Outlook and phones.
 *
 * No sentence ends on a link: the plain-text part writes a link's URL after its words, and a
 * period right after a URL is taken into it by mail clients that turn URLs into links.
 */
interface LayoutProps {
  preview: string;
  heading: string;
  /** The one button into the product; none for an email to someone without an account (a co-owner's copy). */
  action?: { label: string; url: string } | undefined;
  /** Why the recipient gets it, when not because they have an account: a co-owner has none (CONTRACT §22). */
  reason?: string | undefined;
  /** The footer's unsubscribe line; absent on account emails and receipts. */
  unsubscribe?: { url: string; what: string } | undefined;
  children: ReactNode;
}

const colors = { text: '#18181b', muted: '#71717a', brand: '#7c3aed', border: '#e4e4e7', background: '#f4f4f5' };

export function EmailLayout({ preview, heading, action, reason, unsubscribe, children }: LayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: colors.background, fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}>
        <Container style={{ maxWidth: '560px', backgroundColor: '#ffffff', borderRadius: '8px', padding: '32px 24px' }}>
          <Text style={{ color: colors.brand, fontSize: '14px', fontWeight: 700, letterSpacing: '0.04em', margin: '0 0 16px' }}>
            {PRODUCT_NAME}
          </Text>
          <Text style={{ color: colors.text, fontSize: '22px', fontWeight: 700, lineHeight: '28px', margin: '0 0 16px' }}>{heading}</Text>
          <Section style={{ color: colors.text, fontSize: '16px', lineHeight: '24px' }}>{children}</Section>
          {action ? (
            <>
              <Section style={{ margin: '24px 0 8px' }}>
                <Button
                  href={action.url}
                  style={{ backgroundColor: colors.brand, borderRadius: '6px', color: '#ffffff', fontSize: '16px', fontWeight: 600, padding: '12px 20px' }}
                >
                  {action.label}
                </Button>
              </Section>
              <Text style={{ color: colors.muted, fontSize: '13px', lineHeight: '20px', margin: '8px 0 0' }}>
                Or open this link: <Link href={action.url}>{action.url}</Link>
              </Text>
            </>
          ) : null}
          <Hr style={{ borderColor: colors.border, margin: '24px 0 16px' }} />
          <Text style={{ color: colors.muted, fontSize: '12px', lineHeight: '18px', margin: 0 }}>
            {reason ?? `You get this email because you have an account on ${PRODUCT_NAME}.`}
            {unsubscribe ? (
              <>
                {' '}
                Don&apos;t want emails about {unsubscribe.what}? <Link href={unsubscribe.url}>Unsubscribe</Link>
              </>
            ) : null}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A paragraph of the body. */
export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: '16px', lineHeight: '24px', margin: '0 0 12px' }}>{children}</Text>;
}

/** Someone else's words (a review, a message), set apart from ours. */
export function Quote({ children }: { children: ReactNode }) {
  return (
    <Section style={{ borderLeft: `4px solid ${colors.brand}`, backgroundColor: '#faf5ff', padding: '8px 16px', margin: '0 0 12px' }}>
      <Text style={{ fontSize: '15px', lineHeight: '22px', margin: 0, whiteSpace: 'pre-wrap' }}>{children}</Text>
    </Section>
  );
}
