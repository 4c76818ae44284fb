/** Scanning needs the browser's barcode reader and a camera; elsewhere the typed field is the way in. */
export const canScanQr = (): boolean =>
  typeof window !== 'undefined' && 'BarcodeDetector' in window && Boolean(navigator.mediaDevices?.getUserMedia);
