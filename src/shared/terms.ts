import { REJECTION_REFUND_PROMISE } from './billing';

/**
 * The Terms of Service (SPEC §1): the one text the page shows and the submission's licence
 * record keeps (CONTRACT §13). Change `TERMS_VERSION` with any change of wording: each
 * submission stores the SHA-256 of the exact text its artist accepted, and the text itself.
 */
export const TERMS_VERSION = "2026-11-28";

interface TermsSection {
  id: string;
  title: string;
  /** A paragraph, or a list of items. */
  blocks: (string | string[])[];
}

export const TERMS_INTRO: string[] = [
  "These Terms of Service govern your use of this submission platform, operated by the record label that runs it (“the Label”, “we”, “us”). The platform lets artists submit music tracks and music videos so that the Label can review them and, where approved, produce and publish videos on its video channel.",
  "By creating an account, submitting material or ticking the acceptance box when you submit, you (“the Artist”, “you”) agree to these Terms and to our Privacy Policy. If you do not agree, please do not submit material through the platform.",
];

export const TERMS_SECTIONS: TermsSection[] = [
  {
    id: "submission-requirements",
    title: "1. Submission Requirements",
    blocks: [
      "You may only submit material that you have every right to submit. By submitting a track, a video or any image, you confirm that:",
      [
        "you are the original creator of the material, or you are authorised by every person who holds rights in it to submit it and to grant the licence described below;",
        "the material does not infringe any copyright, trademark, performance right, privacy right or other right of any third party;",
        "the material is wholly original and contains no samples, loops, recordings, lyrics or artwork taken from other works without the necessary authorisation.",
      ],
      "The information you give us with a submission, such as the artist name, song title, lyrics, release status and any statement about the use of artificial intelligence, must be accurate and complete. We may decline or remove any submission that does not meet these requirements.",
    ],
  },
  {
    id: "license",
    title: "2. License and Rights Granted",
    blocks: [
      "By submitting material, you grant the Label a perpetual, worldwide, royalty-free, sublicensable and irrevocable licence to use it in order to produce, edit and publish a video on the Label's video channel, and to promote, monetize and distribute that video and the material it contains.",
      "This licence includes the right to adapt, cut, edit and combine the material with visuals created by or for the Label, to publish the resulting video under a title that includes your artist name, and to use excerpts of it to promote the video and the channel.",
      "Once a submission has been approved, the Label may publish the video without asking for any further approval, and the licence granted above cannot be revoked afterwards. You keep the ownership of your original material; this licence does not transfer your copyright to the Label.",
    ],
  },
  {
    id: "approval-publication",
    title: "3. Approval & Publication",
    blocks: [
      "Submitting material does not guarantee that it will be published. Every submission is reviewed by the Label's team, and a video is published only after that review has led to an approval. The Label decides at its sole discretion which submissions are approved and when approved videos are published.",
      "After approval, the Label holds the exclusive right to publish, modify and distribute the video made from your submission. We will work with you on the creation and editing of the video through the platform's messages, but final editorial decisions rest with the Label.",
    ],
  },
  {
    id: "artist-responsibilities",
    title: "4. Artist Responsibilities",
    blocks: [
      "You are solely responsible for the material you submit. If any person claims that your material infringes their rights or that you were not entitled to submit it, you bear all resulting claims, damages, costs and expenses, including reasonable legal fees.",
      "You agree to indemnify and hold harmless the Label, its staff and its partners against any such claim, and to cooperate with us in answering it. You are also responsible for keeping your account credentials confidential and for all activity that takes place under your account.",
    ],
  },
  {
    id: "legal-protection",
    title: "5. Legal Protection",
    blocks: [
      "The Label acts on the confirmations you give when you submit material. Like other platforms that publish content supplied by their users, we rely on those confirmations and on the safe-harbor principles that protect a publisher who acts in good faith and responds promptly once it is told that content may infringe someone's rights.",
      "If we receive a credible notice that published material infringes a third party's rights, we may remove or disable the video without prior notice while the matter is resolved. These Terms do not limit any right that cannot be limited by the law that applies to you.",
    ],
  },
  {
    id: "paid-plans",
    title: "6. Paid Plans and Refunds",
    blocks: [
      "A paid plan is paid by card, through our payment provider Stripe, when you submit. For each payment you receive an invoice, and for each refund a credit note; both are on your billing page.",
      REJECTION_REFUND_PROMISE,
    ],
  },
  {
    id: "viral-bonus",
    title: "7. The Viral Bonus",
    blocks: [
      "The viral bonus is paid on the views YouTube's analytics count for a video's first 14 days. Views YouTube later removes as invalid do not count: we look at the same 14 days again 28 days after publishing, and a video that no longer reaches the views a hit needs no longer counts as a hit.",
      "Before a hit counts, we check where its views came from, how much of the video viewers watched and how the views spread over the days. A hit that does not look like ordinary viewing waits until a member of the Label's team has looked at it, and may not count; you see where it stands, and the reason if it does not count.",
      "A bonus that depended on a hit that no longer counts is not paid; one already paid is deducted from your next bonus payouts. It is never charged to your card.",
    ],
  },
  {
    id: "changes",
    title: "8. Changes to these Terms",
    blocks: [
      "We may update these Terms from time to time. The date at the top of this page shows when they were last updated. Continuing to use the platform after an update means that you accept the updated Terms; licences already granted for approved submissions remain in force.",
    ],
  },
];

/** The whole text as plain text: what is hashed and kept with each submission. */
export function termsPlainText(): string {
  const parts = [`Terms of Service (version ${TERMS_VERSION})`, ...TERMS_INTRO];
  for (const section of TERMS_SECTIONS) {
    parts.push(section.title);
    for (const block of section.blocks)
      parts.push(
        typeof block === "string"
          ? block
          : block.map((item) => `- ${item}`).join("\n"),
      );
  }
  return parts.join("\n\n");
}
