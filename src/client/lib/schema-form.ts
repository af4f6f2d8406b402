import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

/**
 * A small form state for the sign-in page's two forms and the profile form, checked by the shared
 * zod schema that is fetched the first time the form is focused, typed in or checked (decision
 * 144). It does what those forms used of react-hook-form — register, watch, the errors, a submit
 * that checks first and puts the focus on the first wrong field, a check on every change once a
 * submit was tried — so the pages a first visit downloads do not carry react-hook-form's 12 KB
 * (issue 27, decisions 163 and 181). The longer forms elsewhere keep react-hook-form.
 */
export interface LazySchema<Values, Output> {
  (): Promise<z.ZodType<Output, Values>>;
  preload: () => void;
}

export function lazySchema<Values, Output>(load: () => Promise<z.ZodType<Output, Values>>): LazySchema<Values, Output> {
  let loading: Promise<z.ZodType<Output, Values>> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      // A failed download (a dropped connection) is tried again by the next check.
      loading = undefined;
      throw error;
    }));
  return Object.assign(get, { preload: () => void get().catch(() => undefined) });
}

type Errors<Values> = Partial<Record<keyof Values, { message: string }>>;
type Checked<Values, Output> = { ok: true; data: Output } | { ok: false; errors: Errors<Values> };

/** The form holds every field as text; the schema may take more (a field left out, null). */
export function useSchemaForm<Input, Output, Values extends Input & Record<string, string>>(schema: LazySchema<Input, Output>, defaultValues: Values) {
  const [values, setValues] = useState(defaultValues);
  const [errors, setErrors] = useState<Errors<Values>>({});
  const current = useRef(values);
  const submitted = useRef(false);
  const checks = useRef(0);
  const elements = useRef(new Map<keyof Values, HTMLElement | null>());

  const check = async (input: Values): Promise<Checked<Values, Output>> => {
    const result = (await schema()).safeParse(input);
    if (result.success) return { ok: true, data: result.data };
    const found: Errors<Values> = {};
    for (const issue of result.error.issues) {
      const field = issue.path[0] as keyof Values | undefined;
      // The first message of each field, as react-hook-form's zod resolver shows.
      if (field !== undefined && !found[field]) found[field] = { message: issue.message };
    }
    return { ok: false, errors: found };
  };
  /** Runs a check and shows its errors, unless a later check started meanwhile. */
  const recheck = async (input: Values) => {
    const mine = ++checks.current;
    const result = await check(input);
    if (mine === checks.current) setErrors(result.ok ? {} : result.errors);
    return mine === checks.current ? result : null;
  };

  const register = (name: keyof Values & string) => ({
    name,
    value: values[name],
    ref: (element: HTMLElement | null) => void elements.current.set(name, element),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      current.current = { ...current.current, [name]: event.target.value };
      setValues(current.current);
      if (submitted.current) void recheck(current.current).catch(() => undefined);
    },
  });

  const handleSubmit = (onValid: (data: Output) => void) => (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    void recheck(current.current).then((result) => {
      if (!result) return;
      if (result.ok) return onValid(result.data);
      const first = [...elements.current.keys()].find((name) => result.errors[name]);
      if (first) elements.current.get(first)?.focus();
    });
  };

  return { register, handleSubmit, errors, watch: (name: keyof Values) => values[name] };
}
