/** The 30 genres the label publishes (SPEC §9), shown in the auth screen's genre strip. */
export const GENRES = [
  'Gothic Metal',
  'Electronic (all dark/atmospheric styles)',
  'Dark Ambient',
  'House (Dark / Atmospheric)',
  'Dark Synthwave',
  'Dark Trap',
  'Dark Hip-Hop',
  'Experimental (dark / atmospheric)',
  '80s (all genres)',
  'Metal (all subgenres)',
  'Electro',
  'Darkwave',
  'Gothic Rock',
  'Post-Punk',
  'Coldwave',
  'Deathrock',
  'Post-Rock',
  'Post-Metal',
  'Psychedelic Rock',
  'Psy-Chill',
  'Industrial',
  'Industrial Ambient',
  'EBM (Electronic Body Music)',
  'Synth',
  'Synthwave',
  'Atmospheric Music',
  'Concentration / Focus Music (dark or moody tones)',
  'Psychedelic Electronic',
  'Dark Pop',
  'Dungeon Synth',
] as const;

/** What the wizard's step 2 offers (CONTRACT §12): the 30 genres, or Other. */
const OTHER_GENRE = 'Other';
export const GENRE_CHOICES = [...GENRES, OTHER_GENRE] as const;
