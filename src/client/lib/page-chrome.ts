import type { ComponentType } from 'react';
import type { PublicUser } from '@shared/auth';

type Header = ComponentType<{ user: PublicUser }>;

/**
 * The artist's header, known here once a page that shows it has loaded. A page that then fails to
 * load (offline, say) keeps the header above its message: the header's code is already in the
 * tab, whereas fetching it now could fail for the same reason (issue 43). Not imported here, so
 * the first load of /auth does not carry it.
 */
let artistHeader: Header | null = null;

export function registerArtistHeader(header: Header): void {
  artistHeader = header;
}

export function loadedArtistHeader(): Header | null {
  return artistHeader;
}
