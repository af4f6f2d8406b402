/**
 * A file name as an entry of a ZIP the server builds from names people typed: nothing in it can
 * act on the unzipping machine or on whoever reads it. Path separators and `..` could place the
 * file outside the folder it is unpacked into; control characters (CR/LF among them) and
 * bidirectional overrides forge what a listing shows (`evil‮gnp.exe`); quotes and the other
 * characters Windows refuses in names make the entry fail to unpack there. Each run of them
 * becomes `_`; an apostrophe, spaces and any letter stay.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const UNSAFE_IN_ENTRY_NAMES = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069"`<>:|?*/\\]+/g;

/** Long enough for any real title, short enough for every unzip tool's path limit. */
const ENTRY_NAME_MAX = 200;

export function toZipEntryName(fileName: string, fallback = 'file'): string {
  const cleaned = fileName
    .replace(UNSAFE_IN_ENTRY_NAMES, '_')
    // A leading dot hides the file (or is `..`); trailing dots and spaces are dropped by Windows.
    .replace(/^\.+/, '_')
    .replace(/[. ]+$/, '')
    .trim();
  if (cleaned === '' || cleaned === '_') return fallback;
  if (cleaned.length <= ENTRY_NAME_MAX) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, ENTRY_NAME_MAX - extension.length) + extension;
}
