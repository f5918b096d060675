// Fixed-argument wrappers for what Swift cannot call in libvips: its
// operations take NULL-terminated variadic option lists, and a few things
// (VIPS_INIT, g_signal_connect) are macros. Each wrapper supplies the options
// and the terminator. Everything else Imaging calls directly.
// Prefix: mcvips_.
#ifndef MCPACK_MCVIPS_H
#define MCPACK_MCVIPS_H

#include <vips/vips.h>

/// Starts libvips. Returns 0 on success.
int mcvips_init(const char *argv0);

/// Caps glibc's malloc arenas (a no-op elsewhere). Call before threads start.
void mcvips_bound_malloc_arenas(int arenas);

/// Opens an image file lazily (header only until pixels are needed).
/// `sequential` asks for top-to-bottom access, so memory grows with width.
/// Loaders fail on the first decode error instead of returning grey pixels.
VipsImage *mcvips_image_new_from_file(const char *path, int sequential);

/// Opens an image held in memory; the buffer must outlive the image.
VipsImage *mcvips_image_new_from_buffer(const void *buf, size_t len);

/// Decodes every pixel (by computing the mean), so a truncated or corrupt file
/// is found now and not half-way through a build. Returns 0 on success.
int mcvips_decode_all(VipsImage *image);

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

/// The `n` images laid out in rows of `across`, left to right, top to
/// bottom, as one image (the tiles of a pyramid level put back together).
VipsImage *mcvips_arrayjoin(VipsImage **in, int n, int across);

/// Encodes in the format `suffix` names, with the options it carries
/// (".jpg[Q=85,strip]", the tiles' own suffix); *buf freed with g_free.
int mcvips_save_buffer(VipsImage *image, const char *suffix, void **buf, size_t *len);

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

/// The same pyramid as one stored (uncompressed) zip written to the
/// descriptor `fd` as it is made, its entries under `name/`. The
/// descriptor is left open.
int mcvips_dzsave_zip(VipsImage *in, int fd, const char *name, int tile_size, int overlap,
                      const char *suffix, int iiif3, const char *id,
                      mcvips_progress_fn progress, void *context);

/// Asks every computation of `image` to stop with an error (a dzsave
/// whose reader has given up).
void mcvips_kill(VipsImage *image);

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

/// Converts to 8-bit sRGB, as icons need (alpha kept if present).
VipsImage *mcvips_srgb(VipsImage *in);

/// Compares two images pixel by pixel, after converting both to 8-bit sRGB
/// with alpha. Sets *same_size to 0 if their sizes differ (nothing else is
/// computed then); otherwise *changed to the fraction of pixels that differ
/// in any band, *mean to the mean absolute difference (0...255) and
/// *largest to the largest difference of any band.
int mcvips_compare(VipsImage *a, VipsImage *b, int *same_size, double *changed, double *mean, double *largest);

/// A picture of where two same-size images differ: the absolute difference
/// per band, brightened four times, as 8-bit sRGB without alpha.
VipsImage *mcvips_difference_image(VipsImage *a, VipsImage *b);

/// The EXIF orientation (1-8) the file declares, 1 when none.
int mcvips_orientation(VipsImage *image);

/// The image turned as its EXIF orientation says, the tag removed.
VipsImage *mcvips_autorot(VipsImage *in);

/// Reads the ICC profile embedded in `image`, if any: 0 when there is
/// none, 1 when it is usable (its description, up to `size` bytes, is put
/// in `description`, its colour space in `space`: 'R' RGB, 'C' CMYK,
/// 'G' grey, 'L' Lab, 'X' XYZ, '?' other, and the rendering intents it converts
/// from in `intents`: bit 0 perceptual, 1 relative colorimetric, 2
/// saturation), -1 when it cannot be read whole as a profile (cut short,
/// or a table a conversion needs is damaged).
int mcvips_icc_profile(VipsImage *image, char *description, size_t size, char *space, int *intents);

/// How many colour warnings libvips has given so far (an embedded profile
/// it could not use and replaced by sRGB): read before and after a
/// conversion to know it happened.
int mcvips_colour_warnings(void);

/// 8-bit sRGB (or 8-bit grey, for a grey image with no profile), alpha kept
/// and scaled to 8 bits. With `embedded`, from the embedded profile; else
/// from `input_profile` when given (a file, or libvips's built-in "cmyk");
/// else by libvips's colourspace conversion, which scales 16-bit and float
/// values rather than truncating them. `intent` is a VipsIntent.
VipsImage *mcvips_to_srgb8(VipsImage *in, int embedded, const char *input_profile, int intent);

/// `in` (untagged sRGB) converted to `profile` (a file, or "srgb", "p3",
/// "cmyk"), the profile embedded, at `depth` bits. For making test pictures
/// as photographers and designers deliver them.
VipsImage *mcvips_icc_export(VipsImage *in, const char *profile, int depth);

/// Rotated clockwise by `quarters` quarter turns.
VipsImage *mcvips_rotate(VipsImage *in, int quarters);

/// A copy with the EXIF orientation tag set (pixels untouched).
VipsImage *mcvips_with_orientation(VipsImage *in, int orientation);

/// Converted to another colour space (a VipsInterpretation): e.g. RGB16
/// scales 8-bit to 16-bit values, B_W makes grey.
VipsImage *mcvips_colourspace(VipsImage *in, int interpretation);

/// Writes a file in the format its suffix names, keeping its metadata
/// (profile, orientation).
int mcvips_write_file_keeping_metadata(VipsImage *image, const char *path);

/// The mean of one band over every pixel. Returns 0 on success.
int mcvips_band_mean(VipsImage *image, int band, double *mean);

/// Where two same-size images differ, block by block: both as 8-bit sRGB
/// with alpha, the signed difference averaged over `block` x `block` px
/// blocks, and of each block the largest absolute mean of any band. The
/// averaging is what tells a retouch from re-encoding: JPEG's error is
/// mostly detail within its 8 x 8 blocks, and cancels in their mean.
/// *values (columns x rows floats, 0...255, row by row) is freed with g_free.
/// Returns 0 on success, -1 when the sizes differ or libvips fails.
int mcvips_block_difference(VipsImage *a, VipsImage *b, int block, float **values, int *columns, int *rows);

/// `sub` placed over `base` with its top-left corner at left, top; what
/// falls outside `base` is cut off.
VipsImage *mcvips_insert(VipsImage *base, VipsImage *sub, int left, int top);

/// For tests: an RGB input profile with perceptual tables only, reading
/// device (r, g, b) as the sRGB colour (g, b, r); g_free the bytes.
int mcvips_test_perceptual_profile(void **data, size_t *length);

/// `in` with `data` attached as its ICC profile, whatever it holds.
VipsImage *mcvips_with_profile(VipsImage *in, const void *data, size_t length);

/// For tests: 8-bit `in` at a deeper integer format (a VipsBandFormat:
/// ushort or uint), each value multiplied by `factor`.
VipsImage *mcvips_test_deepen(VipsImage *in, int format, double factor);

#endif
