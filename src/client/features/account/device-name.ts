import Bowser from 'bowser';

/**
 * "Chrome on macOS" from a session's user agent, via bowser; a client bowser does not know (a
 * script) is named by the start of its own text; "Unknown device" when there is none.
 */
export function deviceName(userAgent: string | null): string {
  if (!userAgent?.trim()) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || userAgent.trim().slice(0, 40);
}

/** "desktop", "mobile" or "tablet", for the icon. */
export function deviceKind(userAgent: string | null): 'desktop' | 'mobile' | 'tablet' {
  if (!userAgent) return 'desktop';
  const type = Bowser.parse(userAgent).platform.type;
  return type === 'mobile' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop';
}
