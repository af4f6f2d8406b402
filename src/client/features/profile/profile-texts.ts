/** Why the profile matters, said where it is asked for: the prompt, the dialog and the settings. */
export const PROFILE_PURPOSE = 'Your artist name goes in the title of your videos; your links go in their description.';
