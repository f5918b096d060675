// Fixed-argument wrappers over libvips. libvips's C API takes NULL-terminated
// variadic option lists, which Swift cannot call; each wrapper here supplies
// the options and the terminator. Prefix: mcvips_.
#ifndef MCPACK_MCVIPS_H
#define MCPACK_MCVIPS_H

#include <stddef.h>
#include <vips/vips.h>

/// Starts libvips once per process. Returns 0 on success.
int mcvips_init(const char *argv0);

/// Opens an image file lazily (header only until pixels are needed).
/// `sequential` asks for top-to-bottom access, so memory grows with width.
/// Loaders fail on the first decode error instead of returning grey pixels.
VipsImage *mcvips_image_new_from_file(const char *path, int sequential);

/// Opens an image held in memory; the buffer must outlive the image.
VipsImage *mcvips_image_new_from_buffer(const void *buf, size_t len);

/// The name of the loader that opened the image ("pngload", "jpegload", ...),
/// or NULL.
const char *mcvips_loader(VipsImage *image);

/// Decodes every pixel (by computing the mean), so a truncated or corrupt file
/// is found now and not half-way through a build. Returns 0 on success.
int mcvips_decode_all(VipsImage *image);

/// The image's error text, copied and cleared.
char *mcvips_take_error(void);

#endif

/// A width x height image of `bands` 8-bit bands, every pixel `ink`
/// (one value per band).
VipsImage *mcvips_new_solid(int width, int height, int bands, const double *ink);

/// A deterministic 8-bit noise image (Gaussian, seeded): test data with
/// detail in every tile, generated rather than committed.
VipsImage *mcvips_new_noise(int width, int height, int bands, int seed);

/// Encodes as PNG with no metadata, so equal pixels give equal bytes.
/// The caller frees *buf with g_free.
int mcvips_pngsave_buffer(VipsImage *image, void **buf, size_t *len, int compression);

/// Encodes as baseline JPEG with no metadata; *buf freed with g_free.
int mcvips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality);

/// Writes a file in the format its suffix names, without metadata.
int mcvips_write_file(VipsImage *image, const char *path);
