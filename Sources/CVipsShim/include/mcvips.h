// Fixed-argument wrappers over libvips, the only way mcpack reaches it.
// libvips's C API takes NULL-terminated variadic option lists, which Swift
// cannot call; each wrapper here supplies the options and the terminator.
//
// libvips is loaded on first use (mcvips_init), not when mcpack starts: with
// the 120 libraries it pulls in, loading it took 27 ms, more than all of a
// `mcpack diff` that never touches a pixel. So this header names no libvips
// type but an opaque image, and Swift cannot call libvips around it.
// Prefix: mcvips_.
#ifndef MCPACK_MCVIPS_H
#define MCPACK_MCVIPS_H

#include <stddef.h>

typedef struct _VipsImage VipsImage;

/// Loads and starts libvips once per process. Returns 0 on success; on
/// failure mcvips_take_error says why (libvips not installed, say). On
/// macOS mcpack links libvips, so there it is loaded before main.
int mcvips_init(const char *argv0);

/// The version of libvips ("8.14.1"), loading it if need be; NULL if it
/// cannot be loaded.
const char *mcvips_version_string(void);

/// Releases an image (or any libvips object).
void mcvips_unref(VipsImage *image);

/// Frees memory libvips allocated (error texts, encoded buffers).
void mcvips_free(void *pointer);

int mcvips_width(VipsImage *image);
int mcvips_height(VipsImage *image);
int mcvips_bands(VipsImage *image);
int mcvips_has_alpha(VipsImage *image);

/// Caps glibc's malloc arenas (a no-op elsewhere). Call before threads start.
void mcvips_bound_malloc_arenas(int arenas);

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

/// The image computed once into memory, for use more than once.
VipsImage *mcvips_copy_memory(VipsImage *image);

/// The error text, copied and cleared; free it with mcvips_free.
char *mcvips_take_error(void);

/// A width x height image of `bands` 8-bit bands, every pixel `ink`
/// (one value per band).
VipsImage *mcvips_new_solid(int width, int height, int bands, const double *ink);

/// A deterministic 8-bit noise image (Gaussian, seeded): test data with
/// detail in every tile, generated rather than committed.
VipsImage *mcvips_new_noise(int width, int height, int bands, int seed);

/// Encodes as PNG with no metadata, so equal pixels give equal bytes.
/// The caller frees *buf with mcvips_free.
int mcvips_pngsave_buffer(VipsImage *image, void **buf, size_t *len, int compression);

/// Encodes as baseline JPEG with no metadata; *buf freed with mcvips_free.
int mcvips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality);

/// Writes a file in the format its suffix names, without metadata.
int mcvips_write_file(VipsImage *image, const char *path);

/// Reports progress of a long computation: percent done and seconds left.
typedef void (*mcvips_progress_fn)(void *context, int percent, int eta);

/// Writes a tile pyramid. `base` is the output path without suffix:
/// `dir/name` gives dir/name.dzi and dir/name_files/ (Deep Zoom), or
/// dir/name/info.json and its tiles (IIIF 3, when `iiif3` is non-zero,
/// with `id` as the image's base URI). `suffix` is e.g. ".jpg[Q=85,strip]".
/// `progress` may be NULL.
int mcvips_dzsave(VipsImage *in, const char *base, int tile_size, int overlap,
                  const char *suffix, int iiif3, const char *id,
                  mcvips_progress_fn progress, void *context);

/// Resizes to exactly width x height with libvips's thumbnail path
/// (lanczos3, shrink-on-load where the format allows). `crop` cuts the
/// centre to fill (aspect fill); otherwise the image is stretched, which
/// callers only ask for when the aspect ratio is already equal.
VipsImage *mcvips_thumbnail(VipsImage *in, int width, int height, int crop);

/// The width x height rectangle at left, top.
VipsImage *mcvips_crop(VipsImage *in, int left, int top, int width, int height);

/// Removes the alpha channel by blending onto a background colour.
VipsImage *mcvips_flatten(VipsImage *in, double red, double green, double blue);

/// Puts `overlay` (with alpha) centred over `base`, as the launch screen
/// will show it. Returns an sRGB image the size of `base`.
VipsImage *mcvips_composite_centre(VipsImage *base, VipsImage *overlay);

/// Converts to 8-bit sRGB with `bands` bands (3 or 4), as icons need.
VipsImage *mcvips_srgb(VipsImage *in);

/// Compares two images pixel by pixel, after converting both to 8-bit sRGB
/// with alpha. Sets *same_size to 0 if their sizes differ (nothing else is
/// computed then); otherwise *changed to the fraction of pixels that differ
/// in any band and *mean to the mean absolute difference (0...255).
int mcvips_compare(VipsImage *a, VipsImage *b, int *same_size, double *changed, double *mean);

/// A picture of where two same-size images differ: the absolute difference
/// per band, brightened four times, as 8-bit sRGB without alpha.
VipsImage *mcvips_difference_image(VipsImage *a, VipsImage *b);

#endif
