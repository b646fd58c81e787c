// What an error may say across a transport: no absolute paths (each becomes its last segment)
// and no errno names or syscalls (a Node file-system error keeps its own plain words: "no space
// left on device", "permission denied").
// Input: any thrown value's message. Output: one line. Invariant: idempotent, never throws.

const ERRNO = /\b(E[A-Z]{2,}): ([^,'"]*)(, [a-z]+ '[^']*')?/g;
const ERRNO_NAME = /\b(ENOENT|EACCES|EISDIR|ENOTDIR|EPERM|ELOOP|EEXIST|EMFILE|ENFILE|ENAMETOOLONG|EBUSY|EINVAL|EIO|ENOSPC|EROFS|ETXTBSY|EXDEV|ENOTEMPTY)\b/g;
// A POSIX path of two or more segments starting at '/', or a Windows drive path.
const ABSOLUTE = /(?<![\w.~-])(?:[A-Za-z]:\\|\/)(?:[^\s'"`:;,()<>|\\/]+[\\/])+([^\s'"`:;,()<>|\\/]*)/g;

export function sanitizeMessage(message: string): string {
  return message
    .replace(ERRNO, (_whole, _code: string, words: string) => words.trim() || 'file error')
    .replace(ERRNO_NAME, 'file error')
    .replace(ABSOLUTE, (_whole, last: string) => (last ? `…/${last}` : '…/'))
    .split('\n')[0]
    .slice(0, 2000);
}
