import { Avatar, AvatarFallback, AvatarImage } from '@client/components/ui/avatar';
import { cn } from '@client/lib/utils';

const DEFAULT_AVATAR_URL = '/default-avatar.svg';

interface UserAvatarProps {
  imageUrl: string | null | undefined;
  /** The person's display name, used as the image's text alternative. */
  name: string;
  className?: string;
}

/** The profile picture, or the bundled default when it is missing or fails to load (SPEC §2). */
export function UserAvatar({ imageUrl, name, className }: UserAvatarProps) {
  const alt = name ? `${name}'s avatar` : 'Avatar';
  return (
    <Avatar className={cn('ring-1 ring-border', className)}>
      {imageUrl ? <AvatarImage src={imageUrl} alt={alt} referrerPolicy="no-referrer" /> : null}
      <AvatarFallback>
        <img src={DEFAULT_AVATAR_URL} alt={alt} className="size-full" />
      </AvatarFallback>
    </Avatar>
  );
}
