import { Fragment } from 'react';
import { Link } from 'wouter';
import { TERMS_INTRO, TERMS_SECTIONS, TERMS_VERSION } from '@shared/terms';
import { LegalPageLayout, LegalSection } from './legal-page-layout';

const PRIVACY = 'Privacy Policy';

/** A paragraph, with the mention of the Privacy Policy as a link to it. */
function Paragraph({ text }: { text: string }) {
  const parts = text.split(PRIVACY);
  return (
    <p>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <Link href="/privacy-policy" className="text-primary-soft underline underline-offset-2 hover:text-foreground">
              {PRIVACY}
            </Link>
          ) : null}
          {part}
        </Fragment>
      ))}
    </p>
  );
}

/** The Terms of Service, from the one text every submission's licence record keeps (src/shared/terms.ts). */
export function TermsOfServicePage() {
  return (
    <LegalPageLayout
      title="Terms of Service"
      updated={TERMS_VERSION}
      intro={
        <>
          {TERMS_INTRO.map((text) => (
            <Paragraph key={text} text={text} />
          ))}
        </>
      }
    >
      {TERMS_SECTIONS.map((section) => (
        <LegalSection key={section.id} id={section.id} title={section.title}>
          {section.blocks.map((block, index) =>
            typeof block === 'string' ? (
              <Paragraph key={index} text={block} />
            ) : (
              <ul key={index}>
                {block.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ),
          )}
        </LegalSection>
      ))}
    </LegalPageLayout>
  );
}
