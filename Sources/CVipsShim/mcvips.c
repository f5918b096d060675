#ifdef __linux__
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include "mcvips.h"
#include <stdlib.h>
#ifdef __GLIBC__
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#endif
#ifdef __linux__
#include <link.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

/* A VIPSHOME with no vips-modules folder under it. */
const char *const mcvips_home_without_modules = "/nonexistent/mcpack-loads-no-vips-modules";

int mcvips_init(const char *argv0, int with_modules) {
    /* As it starts, libvips loads the optional modules it was built with
     * (HEIF, JPEG XL, ImageMagick, OpenSlide, PDF: Debian's build has them)
     * from the lib folder under $VIPSHOME, or under its install prefix
     * when that is unset, and with them some thirty libraries. A process
     * that reads only what libvips reads itself (TIFF, PNG, JPEG, WebP,
     * SVG: a build, whose inputs refuse the modules' formats by their first
     * bytes) starts it with a VIPSHOME that holds no modules: it starts
     * sooner and holds less. Verify keeps them: an asset catalog may hold
     * a PDF, which only the PDF module reads. libvips would set VIPSHOME
     * itself (to the prefix it guessed); one the user set is left alone,
     * modules and all. */
    if (!with_modules) setenv("VIPSHOME", mcvips_home_without_modules, 0);
    return VIPS_INIT(argv0) ? -1 : 0;
}

#ifdef __GLIBC__
/* Whether the process bounds its memory (mcvips_bound_malloc_arenas), and
 * the mmap threshold a tiling fixed, 0 before: raised only. */
static int malloc_bounded;
static size_t mmap_threshold_set;
static pthread_mutex_t mmap_threshold_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

void mcvips_bound_malloc_arenas(int arenas) {
#ifdef __GLIBC__
    /* glibc gives each new thread its own arena and keeps what the thread
     * freed there: libvips's workers, passing tile buffers between threads,
     * and the threads that hash and write the tiles: with glibc's default
     * arenas a 34,000 px build peaked 60 MB above two arenas, and two
     * arenas 10 MB above one (one costs about 2% more time, the threads
     * sharing its lock). Swift's Glibc module does not show malloc.h. */
    mallopt(M_ARENA_MAX, arenas);
    malloc_bounded = 1;
#else
    (void) arenas;
#endif
}

void mcvips_fix_mmap_threshold(size_t block) {
#ifdef __GLIBC__
    /* glibc raises its mmap threshold to the size of each mapped block
     * freed, up to 32 MB: once libvips freed its first strip buffer (a
     * pyramid level's rows, megabytes), every later one came from the one
     * arena's heap, whose free gaps stay resident. With the threshold
     * fixed, blocks that large get mappings of their own and go back to the
     * system when freed, while a tile's blocks (its pixels, its encoded
     * bytes: `block`) stay in the heap and are reused rather than mapped
     * and unmapped tile after tile. A tiling's peak is then lower, and
     * varies far less from run to run. Fixed only in a process that
     * capped its arenas (`mcpack build`, `mcpack preview`, `mcpack diff`):
     * by a build as it starts, so that what its inputs make before the
     * tiling leaves no gaps in the heap, and raised as a tiling starts.
     * Fixed in every process, a read buffer allocated for each file read
     * would be mapped and unmapped every time.
     * Never lowered, nor past glibc's own ceiling (mallopt refuses it). */
    size_t threshold = block > 256 * 1024 ? block : 256 * 1024;
    pthread_mutex_lock(&mmap_threshold_lock);
    if (malloc_bounded && threshold > mmap_threshold_set && threshold <= INT_MAX && mallopt(M_MMAP_THRESHOLD, (int) threshold))
        mmap_threshold_set = threshold;
    pthread_mutex_unlock(&mmap_threshold_lock);
#else
    (void) block;
#endif
}

#ifdef __linux__
/* Whether the loader wrote into the program's code (text relocations):
 * those pages are then the process's own copies, which unmapping would
 * throw away. */
static int code_relocated(struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *) (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr); entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int unmap_code(struct dl_phdr_info *info, size_t size, void *data) {
    (void) size; (void) data;
    if (code_relocated(info)) return 1;
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        /* Code and what is read with it, never written (not the data the
         * loader relocated, whose pages are the process's own copies). */
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W) || !(segment->p_flags & PF_X)) continue;
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end > start) madvise((void *) start, end - start, MADV_DONTNEED);
    }
    return 1; /* the program is listed first; its libraries are left mapped */
}

/* Whether a debugger (or any tracer) is attached: it writes its
 * breakpoints into the code's pages, and unmapping them would drop them.
 * (A uprobe, which perf probe and bpftrace set, is written so too and
 * names no tracer: one set in code that ran before a tiling is lost.) */
static int traced(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return 1;
    char line[256];
    int tracer = 1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "TracerPid: %d", &tracer) == 1) break;
    fclose(status);
    return tracer != 0;
}
#endif

void mcvips_unmap_program_code(void) {
#ifdef __linux__
    /* What ran before a tiling (the loader's relocation tables, start-up,
     * reading the inputs) stays mapped to the end, and with each page the
     * kernel mapped the 64 KiB around it: most of the program's resident
     * code at a build's peak, of which the tiling runs a small part
     * (docs/ARCHITECTURE.md, "Where a cold build's memory goes"). Unmapped
     * as the tiling starts, the pages it runs come back from the page
     * cache, which keeps them all (the kernel unmaps clean pages so under
     * memory pressure). Only the program's own code segment is
     * unmapped, never written data, never code the loader relocated, and
     * not under a debugger. */
    if (!traced()) dl_iterate_phdr(unmap_code, NULL);
#endif
}

VipsImage *mcvips_image_new_from_file(const char *path, int access, int fail_on) {
    return vips_image_new_from_file(path, "access", access, "fail_on", fail_on, NULL);
}

VipsImage *mcvips_image_new_from_buffer(const void *buf, size_t len, int fail_on) {
    return vips_image_new_from_buffer(buf, len, "", "fail_on", fail_on, NULL);
}

int mcvips_pngsave_buffer(VipsImage *image, void **buf, size_t *len, int compression, int strip) {
    return vips_pngsave_buffer(image, buf, len, "compression", compression, "strip", strip, NULL);
}

int mcvips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality, int strip) {
    return vips_jpegsave_buffer(image, buf, len, "Q", quality, "strip", strip, NULL);
}

int mcvips_write_file(VipsImage *image, const char *path, int strip) {
    return vips_image_write_to_file(image, path, "strip", strip, NULL);
}

int mcvips_save_buffer(VipsImage *image, const char *suffix, void **buf, size_t *len) {
    return vips_image_write_to_buffer(image, suffix, buf, len, NULL);
}

gulong mcvips_connect_eval(VipsImage *image, mcvips_eval_fn fn, void *context) {
    return g_signal_connect(image, "eval", G_CALLBACK(fn), context);
}
