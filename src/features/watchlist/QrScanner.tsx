import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { addressInInput } from '../../domain/address/address-in-link.ts';

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorConstructor = new (options: { formats: string[] }) => Detector;

const SCAN_EVERY_MS = 250;

/**
 * The rear camera in a small frame, read a few times a second until a QR code shows an address (or, with `decode`,
 * whatever the caller reads from a code's text).
 */
export function QrScanner({
  onFound,
  onClose,
  decode = (text) => addressInInput(text).text ?? text,
  instead = 'Type or paste the address instead.',
}: {
  onFound: (text: string) => void;
  onClose: () => void;
  decode?: (text: string) => string;
  /** What to do when the camera cannot be opened. */
  instead?: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const found = useEffectEvent((text: string) => onFound(decode(text)));

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let stopped = false;
    const Barcode = (window as unknown as { BarcodeDetector: DetectorConstructor }).BarcodeDetector;
    const detector = new Barcode({ formats: ['qr_code'] });
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (opened) => {
        stream = opened;
        if (stopped || !video.current) return opened.getTracks().forEach((track) => track.stop());
        video.current.srcObject = opened;
        // Autoplay can be refused (or be missing, as in jsdom); the frames are read all the same once it runs.
        await Promise.resolve()
          .then(() => video.current?.play())
          .catch(() => undefined);
        timer = setInterval(() => {
          if (!video.current) return;
          void detector.detect(video.current).then((codes) => {
            const text = codes[0]?.rawValue;
            if (text && !stopped) found(text);
          });
        }, SCAN_EVERY_MS);
      })
      .catch(() => setProblem(`The camera could not be opened. ${instead}`));
    return () => {
      stopped = true;
      if (timer) clearInterval(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [instead]);

  return (
    <div className="qr-scanner">
      {problem ? (
        <p role="alert" className="error">
          {problem}
        </p>
      ) : (
        <video ref={video} muted playsInline aria-label="Camera view: point it at a QR code" />
      )}
      <button type="button" onClick={onClose}>
        Stop scanning
      </button>
    </div>
  );
}
