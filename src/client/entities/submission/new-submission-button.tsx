import { Plus } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

/** "Submit New Track": the way into the wizard, from the dashboard's greeting and its empty list. */
export function NewSubmissionButton() {
  return (
    <Button asChild>
      <Link href="/submit">
        <Plus aria-hidden />
        Submit New Track
      </Link>
    </Button>
  );
}
