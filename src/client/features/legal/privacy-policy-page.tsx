import { DELETION_TEXTS, EXPORT_TEXTS } from '@shared/account';
import { LegalPageLayout, LegalSection } from './legal-page-layout';

export function PrivacyPolicyPage() {
  return (
    <LegalPageLayout
      title="Privacy Policy"
      intro={
        <>
          <p>
            This Privacy Policy explains what personal data the record label operating this submission platform (“the Label”, “we”,
            “us”) collects when you use the platform, why we process it, and the rights you have over it.
          </p>
          <p>
            We collect only what we need to review your submissions, produce and publish videos, and stay in touch with you about
            them.
          </p>
        </>
      }
    >
      <LegalSection id="data-we-collect" title="1. Information We Collect">
        <p>When you use the platform we collect:</p>
        <ul>
          <li><strong>Account information:</strong> your first and last name, your artist name and your email address, and, if you choose to add them, your country and the links or handles of your social media and streaming profiles.</li>
          <li><strong>Submitted material:</strong> the track and video files or links you submit, artwork, style and character reference images, lyrics, descriptions and the other details you provide with a submission.</li>
          <li><strong>Messages:</strong> the messages you exchange with the Label's team through the platform.</li>
          <li><strong>Technical metadata:</strong> information such as file names, sizes and types, the dates of your submissions, and the technical data needed to keep you signed in securely.</li>
        </ul>
        <p>
          If you sign in with Google, we receive your name, email address and profile picture from Google. If you pay for a plan,
          your card details are entered directly with our payment provider and never reach or are stored on our servers; we keep only
          the payment's status and reference.
        </p>
      </LegalSection>

      <LegalSection id="legal-basis" title="2. Legal Basis for Processing">
        <p>
          We process your data because it is necessary to perform our agreement with you: to create and manage your account, review
          your submissions, produce and publish videos, and communicate with you about them.
        </p>
        <p>
          When you submit material you also give your explicit consent by ticking the acceptance box, which covers the processing of
          your submitted material and details for these purposes. Your artist name and the social links you choose to provide are
          published with your video, as described in our Terms of Service.
        </p>
        <p>
          We do not sell your personal data, and we do not share it with third parties except where the law requires us to do so.
        </p>
      </LegalSection>

      <LegalSection id="your-rights" title="3. Your Rights Under the GDPR">
        <p>Under the General Data Protection Regulation and similar laws, you have the right to:</p>
        <ul>
          <li><strong>Access</strong> the personal data we hold about you and receive a copy of it;</li>
          <li><strong>Correct</strong> data that is inaccurate or incomplete;</li>
          <li><strong>Delete</strong> your data, subject to the licence you granted for approved submissions and to any legal obligation to keep certain records;</li>
          <li><strong>Withdraw your consent</strong> at any time, without affecting the lawfulness of processing carried out before the withdrawal;</li>
          <li><strong>Portability</strong>: receive the data you gave us in a structured, commonly used, machine-readable format.</li>
        </ul>
        <p>You may also lodge a complaint with the data protection authority of the country where you live.</p>
      </LegalSection>

      <LegalSection id="your-account" title="4. Using Your Rights Yourself">
        <p>You do not need to write to us to use most of these rights: your account&apos;s Settings page does it.</p>
        <ul>
          <li><strong>Correct:</strong> change your artist name, country, social links, email address and password at any time. A new email address is used only once you open the link we send to it.</li>
          <li><strong>Access and portability:</strong> &ldquo;Download my data&rdquo; gives you at once a ZIP file with everything we hold about you ({EXPORT_TEXTS.records}, in a file named account.json) and {EXPORT_TEXTS.files}.</li>
          <li><strong>See where you are signed in:</strong> for each signed-in device we keep the name your browser gives itself, when it signed in and when it was last used, so you can sign it out.</li>
          <li><strong>Delete:</strong> &ldquo;Delete my account&rdquo; asks for your password, then deletes your account at once and signs you out everywhere.</li>
        </ul>
        <p>When you delete your account, this is what we delete:</p>
        <ul>
          {DELETION_TEXTS.goes.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
        <p>And this is what stays, and why:</p>
        <ul>
          {DELETION_TEXTS.stays.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
        <p>
          If you forget your password, &ldquo;Forgot password?&rdquo; on the sign-in page sends a link to your email address. It works once,
          for one hour, and using it signs you out on every device.
        </p>
      </LegalSection>

      <LegalSection id="security" title="5. Security">
        <p>
          We protect your data with technical and organisational measures appropriate to the risk: encrypted connections, passwords
          stored only as strong one-way hashes, access to submitted files restricted to you and to the Label's authorised staff, and
          secure session handling.
        </p>
        <p>
          No system is entirely free of risk, but we review these measures regularly and will inform you and the competent authority
          of any breach affecting your data where the law requires it.
        </p>
      </LegalSection>

      <LegalSection id="contact" title="6. Contact">
        <p>
          To exercise any of your rights or ask a question about this policy, contact the Label's team through the platform's
          messages, or reach our support team. We will answer your request without undue delay and at the latest within the period
          set by the applicable law.
        </p>
      </LegalSection>
    </LegalPageLayout>
  );
}
