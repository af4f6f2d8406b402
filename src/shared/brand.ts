/** How the product names itself in its chrome; the label's legal name is not part of SPEC. */
export const PRODUCT_NAME = 'Submission Hub';
