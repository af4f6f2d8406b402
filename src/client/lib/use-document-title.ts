import { useEffect } from 'react';
import { PRODUCT_NAME } from '@shared/brand';

/** Names the browser tab after the page, which is also what screen readers announce on navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
