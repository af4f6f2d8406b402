import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { FormField } from './form-field';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

// The sign-in page's own tabs, slot and label stand in for Radix's (decision 163): the markup
// assistive technology reads must be what Radix wrote.
describe('the sign-in page primitives', () => {
  it('tabs: a tablist, the chosen tab selected and focusable, only its panel drawn and tied to it', () => {
    const html = renderToStaticMarkup(
      <Tabs defaultValue="sign-in">
        <TabsList>
          <TabsTrigger value="sign-in">Sign In</TabsTrigger>
          <TabsTrigger value="create-account">Create Account</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in">first</TabsContent>
        <TabsContent value="create-account">second</TabsContent>
      </Tabs>,
    );
    expect(html).toContain('role="tablist"');
    const tabs = [...html.matchAll(/<button ([^>]*)>([^<]*)<\/button>/g)].map(([, attrs, text]): Record<string, string | undefined> => ({ ...attributes(attrs!), text }));
    expect(tabs.map((tab) => [tab.text, tab.role, tab['aria-selected'], tab.tabindex, tab['data-state']])).toEqual([
      ['Sign In', 'tab', 'true', '0', 'active'],
      ['Create Account', 'tab', 'false', '-1', 'inactive'],
    ]);
    const panels = [...html.matchAll(/<div ([^>]*role="tabpanel"[^>]*)>([^<]*)<\/div>/g)].map(([, attrs, text]): Record<string, string | undefined> => ({ ...attributes(attrs!), text }));
    expect(panels.map((panel) => panel.text)).toEqual(['first']);
    expect(panels[0]!.id).toBe(tabs[0]!['aria-controls']);
    expect(panels[0]!['aria-labelledby']).toBe(tabs[0]!.id);
  });

  it('slot: a button asChild gives its link the classes (both sets) and keeps the link’s own props', () => {
    const html = renderToStaticMarkup(
      <Button asChild variant="outline">
        <a href="/settings" className="own-class">
          Edit
        </a>
      </Button>,
    );
    const link = attributes(/<a ([^>]*)>/.exec(html)![1]!);
    expect(link.href).toBe('/settings');
    expect(link.class).toContain('own-class');
    expect(link.class).toContain('inline-flex');
    expect(link.type).toBeUndefined();
  });

  it('form field: the control gets the id, aria-invalid and the error’s id; the label points at it', () => {
    const html = renderToStaticMarkup(
      <FormField id="login-email" label="Email" error="Enter a valid email">
        <input type="email" />
      </FormField>,
    );
    const input = attributes(/<input ([^>]*)\/>/.exec(html)![1]!);
    expect(input.id).toBe('login-email');
    expect(input['aria-invalid']).toBe('true');
    expect(html).toContain(`<p id="${input['aria-describedby']}" role="alert"`);
    expect(html).toMatch(/<p id="login-email-error"[^>]*>Enter a valid email<\/p>/);
    expect(attributes(/<label ([^>]*)>/.exec(html)![1]!).for).toBe('login-email');
  });
});

/** The attributes of one rendered tag, by name. */
function attributes(source: string): Record<string, string | undefined> {
  return Object.fromEntries([...source.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
}
