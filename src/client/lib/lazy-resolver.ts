import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver for a shared zod schema that is fetched the first time the form is
 * checked, not with the page. zod and the schemas are the largest piece of the sign-in page and
 * none of it is needed to show it (issue 16, decision 144): `preload` (called when the form gets
 * the focus) fetches them while the person types, so a submit seldom waits. The schema is the
 * same one the server checks with; only when it arrives changes.
 */
export function lazyResolver<Input extends FieldValues, Output>(
  load: () => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> & { preload: () => void } {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const resolver = () =>
    (loading ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as Resolver<Input, unknown, Output>,
      (error: unknown) => {
        // A failed download (a dropped connection) is tried again by the next check.
        loading = undefined;
        throw error;
      },
    ));
  const check: Resolver<Input, unknown, Output> = async (values, context, options) => (await resolver())(values, context, options);
  return Object.assign(check, { preload: () => void resolver().catch(() => undefined) });
}
