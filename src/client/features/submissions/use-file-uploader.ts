import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import Tus from '@uppy/tus';
import XHRUpload from '@uppy/xhr-upload';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isErrorCode, type ErrorCode } from '@shared/error-codes';
import { UPLOAD_STATE_TEXTS } from '@shared/field-texts';
import { UPLOAD_RETRY_DELAYS_MS, formatBytes } from '@shared/submissions';
import { apiRequest, errorMessage } from '@client/lib/api';
import { RESUMABLE_UPLOAD_OPTIONS, percentUploaded } from '@client/lib/resumable-upload';
import { toast } from '@client/lib/toast';
import { UPLOAD_KINDS, isAllowedType, type UploadKind } from './upload-kinds';

/** SPEC §9: at most 6 files upload at once. */
const CONCURRENCY = 6;

type UploadBody = Record<string, never>;
type File_ = UppyFile<Meta, UploadBody>;

/**
 * Where a file stands (CONTRACT §23: the row says it in words): `offline` while the browser has no
 * connection (nothing is lost, the upload waits), `resuming` from the moment it is back until
 * bytes move again, `retrying` while a failed request waits for its next attempt.
 */
type UploadStatus = 'uploading' | 'offline' | 'resuming' | 'retrying' | 'processing' | 'uploaded' | 'failed';

/** The statuses of a file still on its way: the wizard waits for them (isBusy). */
const ON_ITS_WAY: readonly UploadStatus[] = ['uploading', 'offline', 'resuming', 'retrying', 'processing'];
/** The statuses a file leaves for `uploading` when its bytes move. */
const MOVING_AGAIN: readonly UploadStatus[] = ['offline', 'resuming', 'retrying'];

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  /** 0–100 */
  progress: number;
  status: UploadStatus;
  objectPath?: string;
  error?: string;
  /** Failed for want of a connection: it starts again by itself when the browser is back online. */
  networkFailure?: boolean;
  /** A local preview for images. */
  previewUrl?: string;
}

interface RestoredFile {
  objectPath: string;
  name: string;
  size: number;
}

export interface FileUploader {
  kind: UploadKind;
  items: UploadItem[];
  objectPaths: string[];
  isBusy: boolean;
  addFiles: (files: FileList | File[]) => void;
  /** Shows files uploaded before (a draft's), as uploaded, without sending them again. */
  restore: (files: RestoredFile[]) => void;
  remove: (id: string) => void;
  removeAll: () => void;
  retry: (id: string) => void;
}

/** What the error handling reads of a failed request: an XMLHttpRequest, or what tus reports. */
interface FailedResponse {
  status: number;
  statusText?: string;
  responseText: string;
}

/**
 * SPEC §8: an expired upload URL, 429, 409, 5xx and network failures are retried (each attempt
 * asks for a fresh URL); any other 4xx is final.
 */
function isRetryable(xhr: FailedResponse | undefined): boolean {
  const status = xhr?.status ?? 0;
  if (status === 0 || status >= 500 || status === 429 || status === 409) return true;
  return uploadErrorCode(xhr) === 'upload_url_expired';
}

/**
 * The reason an upload PUT was refused. This server answers `{message, code}`; S3 answers a
 * presigned URL past its expiry with `403 AccessDenied` whose only distinguishing mark is the
 * message "Request has expired", so that message is translated to our code here, at the edge.
 */
function uploadErrorCode(xhr: FailedResponse | undefined): ErrorCode | null {
  const text = xhr?.responseText ?? '';
  try {
    const body: unknown = JSON.parse(text);
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    return isErrorCode(code) ? code : null;
  } catch {
    return xhr?.status === 403 && /<Message>Request has expired<\/Message>/.test(text) ? 'upload_url_expired' : null;
  }
}

function responseMessage(xhr: FailedResponse | undefined, fallback: string): string {
  try {
    const body: unknown = JSON.parse(xhr?.responseText ?? '');
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
  } catch {
    // Not JSON: the status line says enough.
  }
  return xhr && xhr.status ? `${xhr.status}: ${xhr.statusText || fallback}` : fallback;
}

function waitUntilOnline(): Promise<void> {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * The browser could no longer read the file the artist chose (it was edited, moved or deleted
 * meanwhile): no retry helps, and the row says so (CONTRACT §23).
 */
function isFileChanged(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  return name === 'NotReadableError' || name === 'NotFoundError' || /NotReadableError|could not be read|file.*(changed|modified)/i.test(message);
}

/**
 * Uploads files of one kind with Uppy, with progress, then has the server normalise each into an
 * object path (SPEC §7). Direct kinds get a fresh upload URL per attempt (POST
 * /api/objects/upload) and PUT the raw bytes there; resumable kinds (video) use tus, which
 * continues an interrupted upload from the last byte the server has. The hook's API is the same.
 */
export function useFileUploader(kind: UploadKind, onPathsChange: (paths: string[]) => void): FileUploader {
  const config = UPLOAD_KINDS[kind];
  const [items, setItems] = useState<UploadItem[]>([]);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  });
  const uppyRef = useRef<Uppy<Meta, UploadBody> | null>(null);
  /** Automatic retries made per file, against UPLOAD_RETRY_DELAYS_MS. */
  const attemptsRef = useRef(new Map<string, number>());
  const onPathsChangeRef = useRef(onPathsChange);
  useEffect(() => {
    onPathsChangeRef.current = onPathsChange;
  });

  const patch = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  useEffect(() => {
    const uploadUrls = new Map<string, string>();
    const attempts = attemptsRef.current;
    const uppy = new Uppy<Meta, UploadBody>({
      autoProceed: true,
      restrictions: { maxFileSize: config.maxBytes, maxNumberOfFiles: config.maxFiles, allowedFileTypes: config.allowedTypes },
    });
    if (config.transport === 'resumable') {
      // tus retries by itself first; ours (upload-error below) come after its own.
      uppy.use(Tus, RESUMABLE_UPLOAD_OPTIONS);
    } else {
      uppy.use(XHRUpload, {
        method: 'PUT',
        formData: false,
        limit: CONCURRENCY,
        endpoint: async (file) => {
          const { uploadURL } = await apiRequest<{ uploadURL: string }>('POST', '/api/objects/upload');
          uploadUrls.set((file as File_).id, uploadURL);
          return uploadURL;
        },
        headers: (file) => ({ 'Content-Type': file.type || 'application/octet-stream' }),
        // Retries are ours, with SPEC's delays and a fresh single-use URL each time.
        shouldRetry: () => false,
        getResponseData: () => ({}),
      });
    }
    uppyRef.current = uppy;

    uppy.on('upload-progress', (file, progress) => {
      if (!file || !progress.bytesTotal) return;
      // Bytes moving again: no longer resuming or retrying (a late event while offline changes nothing).
      const current = itemsRef.current.find((item) => item.id === file.id);
      const moving = navigator.onLine && current && MOVING_AGAIN.includes(current.status) ? { status: 'uploading' as const } : {};
      patch(file.id, { progress: percentUploaded(progress), ...moving });
    });

    uppy.on('upload-success', (file, response) => {
      if (!file) return;
      const url = uploadUrls.get(file.id) ?? response?.uploadURL;
      patch(file.id, { progress: 100, status: 'processing' });
      const run = url ? config.normalize(url, { name: file.name ?? 'file', size: file.size ?? 0 }) : Promise.reject(new Error('Upload URL missing'));
      run.then(
        (objectPath) => {
          if (!uppy.getFile(file.id)) return; // removed meanwhile
          patch(file.id, { status: 'uploaded', objectPath });
          toast({ title: 'Upload Successful', description: `${file.name} is uploaded.` });
        },
        (error: unknown) => {
          if (!uppy.getFile(file.id)) return;
          const message = errorMessage(error);
          patch(file.id, { status: 'failed', error: message });
          toast({ title: 'Upload Failed', description: message, variant: 'destructive' });
        },
      );
    });

    uppy.on('upload-error', (file, error, response) => {
      if (!file) return;
      if (isFileChanged(error) || isFileChanged((error as { originalRequest?: unknown; cause?: unknown }).cause)) {
        patch(file.id, { status: 'failed', error: UPLOAD_STATE_TEXTS.fileChanged, networkFailure: false });
        toast({ title: 'Upload Failed', description: UPLOAD_STATE_TEXTS.fileChanged, variant: 'destructive' });
        return;
      }
      const tusResponse = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
      const xhr: FailedResponse | undefined = tusResponse
        ? { status: tusResponse.getStatus(), responseText: tusResponse.getBody() }
        : ((response as unknown as XMLHttpRequest | undefined) ?? (error as { request?: XMLHttpRequest }).request);
      // Offline, a failure says nothing about the upload: it waits for the connection without
      // spending a retry, and the 'online' listener below sends it on (CONTRACT §23).
      if (!navigator.onLine && isRetryable(xhr)) {
        patch(file.id, { status: 'offline', networkFailure: true });
        return;
      }
      const attempt = attempts.get(file.id) ?? 0;
      if (isRetryable(xhr) && attempt < UPLOAD_RETRY_DELAYS_MS.length) {
        attempts.set(file.id, attempt + 1);
        // A resumable upload keeps what arrived; a direct one starts again.
        patch(file.id, config.transport === 'resumable' ? { status: 'retrying' } : { status: 'retrying', progress: 0 });
        setTimeout(() => {
          void waitUntilOnline().then(() => {
            if (uppy.getFile(file.id)) void uppy.retryUpload(file.id);
          });
        }, UPLOAD_RETRY_DELAYS_MS[attempt]);
        return;
      }
      const message = responseMessage(xhr, error.message || 'Upload error');
      patch(file.id, { status: 'failed', error: message, networkFailure: (xhr?.status ?? 0) === 0 });
      toast({ title: 'Upload Failed', description: message, variant: 'destructive' });
    });

    uppy.on('upload-retry', (file) => {
      if (!file) return;
      // tus continues from the server's offset: its progress stays until the server says otherwise.
      patch(file.id, config.transport === 'resumable' ? { status: 'resuming', error: undefined } : { status: 'resuming', progress: 0, error: undefined });
    });

    // CONTRACT §23: going offline pauses what is on its way (tus keeps every byte that arrived);
    // coming back resumes it, and sends again whatever failed for want of a connection, with a
    // fresh retry budget. The row says which.
    const onOffline = () => {
      // A request under way may hang rather than fail (a phone between cells); tus stops it and
      // asks the server for its offset when resumed. A direct upload fails, or finishes, by itself.
      if (config.transport === 'resumable') uppy.pauseAll();
      for (const item of itemsRef.current) {
        if (item.status !== 'uploading' && item.status !== 'resuming' && item.status !== 'retrying') continue;
        if (!uppy.getFile(item.id)) continue;
        patch(item.id, { status: 'offline' });
      }
    };
    const onOnline = () => {
      // Read before resumeAll, which forgets the errors: a failed upload is no longer running and
      // needs a retry, a paused one resumes.
      const failedWhileOffline = new Set(uppy.getFiles().flatMap((file) => (file.error ? [file.id] : [])));
      if (config.transport === 'resumable') uppy.resumeAll();
      for (const item of itemsRef.current) {
        if (!uppy.getFile(item.id)) continue;
        const waiting = item.status === 'offline' || (item.status === 'failed' && item.networkFailure);
        if (!waiting) continue;
        attempts.delete(item.id);
        patch(item.id, { status: 'resuming', error: undefined, networkFailure: false });
        if (failedWhileOffline.has(item.id) || item.status === 'failed') void uppy.retryUpload(item.id);
      }
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);

    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      uppyRef.current = null;
      uppy.destroy();
    };
  }, [config, patch]);

  // Previews are released when their item goes away.
  const previewsRef = useRef(new Map<string, string>());
  useEffect(() => {
    const previews = previewsRef.current;
    return () => {
      for (const url of previews.values()) URL.revokeObjectURL(url);
      previews.clear();
    };
  }, []);

  const objectPaths = items.flatMap((item) => (item.status === 'uploaded' && item.objectPath ? [item.objectPath] : []));
  const pathsKey = objectPaths.join('\n');
  useEffect(() => {
    onPathsChangeRef.current(pathsKey ? pathsKey.split('\n') : []);
  }, [pathsKey]);

  const addFiles = useCallback(
    (fileList: FileList | File[]) => {
      const uppy = uppyRef.current;
      if (!uppy) return;
      const files = Array.from(fileList);
      // Restored files (a draft's) count too, though Uppy never saw them.
      const restored = itemsRef.current.filter((item) => !uppy.getFile(item.id)).length;
      const room = config.maxFiles - uppy.getFiles().length - restored;
      if (files.length > room) {
        toast({
          title: 'Upload Failed',
          description: config.maxFiles === 1 ? 'Only one file can be uploaded here.' : `You can upload at most ${config.maxFiles} images here.`,
          variant: 'destructive',
        });
      }
      for (const file of files.slice(0, Math.max(0, room))) {
        if (!isAllowedType(file, config.allowedTypes)) {
          toast({ title: 'Upload Failed', description: `${file.name}: only ${config.typeLabel} files are accepted.`, variant: 'destructive' });
          continue;
        }
        if (file.size > config.maxBytes) {
          toast({ title: 'Upload Failed', description: `${file.name} is larger than ${formatBytes(config.maxBytes)}.`, variant: 'destructive' });
          continue;
        }
        try {
          const id = uppy.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
          const previewUrl = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
          if (previewUrl) previewsRef.current.set(id, previewUrl);
          setItems((current) => [...current, { id, name: file.name, size: file.size, progress: 0, status: 'uploading', previewUrl }]);
        } catch (error) {
          toast({ title: 'Upload Failed', description: errorMessage(error), variant: 'destructive' });
        }
      }
    },
    [config],
  );

  const restore = useCallback((files: RestoredFile[]) => {
    setItems(
      files.slice(0, config.maxFiles).map((file) => ({
        id: `restored:${file.objectPath}`,
        name: file.name,
        size: file.size,
        progress: 100,
        status: 'uploaded' as const,
        objectPath: file.objectPath,
        // An image already on the server previews from there.
        previewUrl: config.allowedTypes.includes('image/png') ? file.objectPath : undefined,
      })),
    );
  }, [config]);

  const forget = useCallback((ids: string[]) => {
    const uppy = uppyRef.current;
    for (const id of ids) {
      if (uppy?.getFile(id)) uppy.removeFile(id);
      const preview = previewsRef.current.get(id);
      if (preview) URL.revokeObjectURL(preview);
      previewsRef.current.delete(id);
    }
    setItems((current) => current.filter((item) => !ids.includes(item.id)));
  }, []);

  const remove = useCallback(
    (id: string) => {
      forget([id]);
      toast({ title: 'File Removed' });
    },
    [forget],
  );

  const removeAll = useCallback(() => {
    forget(items.map((item) => item.id));
    toast({ title: items.length > 1 ? 'Files Removed' : 'File Removed' });
  }, [forget, items]);

  const retry = useCallback(
    (id: string) => {
      const uppy = uppyRef.current;
      const file = uppy?.getFile(id);
      if (!uppy || !file) return;
      attemptsRef.current.delete(id);
      if (!file.progress.uploadComplete) {
        patch(id, { status: 'uploading', progress: 0, error: undefined });
        void uppy.retryUpload(id);
        return;
      }
      // The bytes arrived but the server refused them: upload them again under a fresh URL.
      uppy.removeFile(id);
      const newId = uppy.addFile({ name: file.name, type: file.type, data: file.data as Blob, source: 'Local' });
      const preview = previewsRef.current.get(id);
      if (preview) {
        previewsRef.current.delete(id);
        previewsRef.current.set(newId, preview);
      }
      setItems((current) =>
        current.map((item) => (item.id === id ? { ...item, id: newId, status: 'uploading', progress: 0, error: undefined } : item)),
      );
    },
    [patch],
  );

  return {
    kind,
    items,
    objectPaths,
    isBusy: items.some((item) => ON_ITS_WAY.includes(item.status)),
    addFiles,
    restore,
    remove,
    removeAll,
    retry,
  };
}
