#!/usr/bin/python3
"""Independent reference values for core/tests/metrics_test.cpp (run offline; not part of the build).

Implements the metrics from their textbook definitions in NumPy/SciPy, on images defined by closed formulas
that the C++ test evaluates identically, and prints the values the test pins. scikit-image's SSIM (which pads
half-sample-symmetrically and crops the border) is printed alongside for comparison only.

Run: /usr/bin/python3 core/tests/oracle/metrics_oracle.py   (Debian: python3-scipy, python3-skimage)
"""
import numpy as np
from scipy.signal import convolve2d
from skimage.metrics import structural_similarity


def image_pair(n, offset=0.0):
    """b is a with a fine pattern added and, when offset is not 0, brighter by offset (clipped to [0, 1])."""
    i, j = np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64), indexing="ij")
    a = 0.5 + 0.3 * np.sin(0.37 * i + 0.11 * j) + 0.1 * np.cos(0.05 * i * j)
    b = np.clip(a + 0.15 * np.sin(1.3 * i) * np.cos(0.7 * j) + offset, 0.0, 1.0)
    return a, b


def gaussian(size=11, sigma=1.5):
    t = np.arange(size, dtype=np.float64) - size // 2
    g = np.exp(-(t * t) / (2 * sigma * sigma))
    return g / g.sum()


def filt(x, g):
    pad = len(g) // 2
    xp = np.pad(x, pad, mode="reflect")  # mirror without repeating the edge, as torch's reflection_pad2d
    return convolve2d(xp, np.outer(g, g), mode="valid")


def ssim_terms(a, b, L=1.0):
    g = gaussian()
    c1, c2 = (0.01 * L) ** 2, (0.03 * L) ** 2
    ma, mb = filt(a, g), filt(b, g)
    va, vb = filt(a * a, g) - ma * ma, filt(b * b, g) - mb * mb
    cov = filt(a * b, g) - ma * mb
    return (2 * ma * mb + c1) / (ma * ma + mb * mb + c1), (2 * cov + c2) / (va + vb + c2)


def ssim(a, b):
    lum, cs = ssim_terms(a, b)
    return float(np.mean(lum * cs))


def ms_ssim(a, b):
    w = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]
    vals = []
    for s in range(5):
        if min(a.shape) <= 11:
            break
        lum, cs = ssim_terms(a, b)
        vals.append(np.mean(lum * cs) if s == 4 else np.mean(cs))
        a = a.reshape(a.shape[0] // 2, 2, a.shape[1] // 2, 2).mean(axis=(1, 3))
        b = b.reshape(b.shape[0] // 2, 2, b.shape[1] // 2, 2).mean(axis=(1, 3))
    return float(np.prod([np.clip(v, 1e-10, 1.0) ** wi for v, wi in zip(vals, w)]))


# 256 is the smallest power of two whose fifth MS-SSIM scale (16 px) exceeds the 11-px window, so only there does
# the luminance term of the last scale count; the brightness offset makes that term differ from 1.
for n, offset in ((32, 0.0), (64, 0.0), (256, 0.1)):
    a, b = image_pair(n, offset)
    mse = np.mean((b - a) ** 2)
    print(f"n={n} offset={offset}")
    print(f"  mse      {mse:.17g}")
    print(f"  psnr_db  {10 * np.log10(1.0 / mse):.17g}")
    print(f"  mae      {np.mean(np.abs(b - a)):.17g}")
    print(f"  rmse_pct {100 * np.linalg.norm(b - a) / np.linalg.norm(a):.17g}")
    print(f"  cosine   {np.dot(a.ravel(), b.ravel()) / (np.linalg.norm(a) * np.linalg.norm(b)):.17g}")
    print(f"  max_abs  {np.max(np.abs(b - a)):.17g}")
    print(f"  ssim     {ssim(b, a):.17g}")
    print(f"  ms_ssim  {ms_ssim(b, a):.17g}")
    sk = structural_similarity(b, a, data_range=1.0, gaussian_weights=True, sigma=1.5, use_sample_covariance=False)
    print(f"  skimage_ssim (for comparison only) {sk:.17g}")
