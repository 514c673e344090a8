#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

// libjpeg-turbo 2.1 on Debian bookworm: the TurboJPEG 2 API (tjInitDecompress, tjDecompressHeader3) for headers
// and scaling factors, no tj3 functions; pixels through libjpeg's own API (`cturbojpeg_decompress`).
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <jpeglib.h>

/// `TJSCALED` is a function-like macro, which Swift cannot import; this is the same integer ceil(dimension * factor).
static inline int cturbojpeg_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

/// libjpeg's error manager with a jump back into `cturbojpeg_decompress` and room for the texts it reports.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    char warning[JMSG_LENGTH_MAX];
    int cancelled;
} cturbojpeg_errors;

/// libjpeg's progress monitor with the question it asks: is the decode still wanted?
typedef struct {
    struct jpeg_progress_mgr manager;
    int (*should_stop)(void);
} cturbojpeg_progress;

/// libjpeg's default error_exit prints and exits: this keeps the text and jumps back instead.
static inline void cturbojpeg_error_exit(j_common_ptr info) {
    cturbojpeg_errors *errors = (cturbojpeg_errors *)info->err;
    (*info->err->format_message)(info, errors->message);
    longjmp(errors->jump, 1);
}

/// Warnings (level -1: "Premature end of JPEG file", corrupt data) keep the first one's text, as TurboJPEG reports
/// it; trace messages (level 0 and up) are dropped. Nothing is printed.
static inline void cturbojpeg_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;
    cturbojpeg_errors *errors = (cturbojpeg_errors *)info->err;
    if (info->err->num_warnings == 0) (*info->err->format_message)(info, errors->warning);
    info->err->num_warnings++;
}

/// Called by libjpeg once per row of blocks (iMCU row) in every scan it reads and every row group it outputs: ends
/// a decode that is no longer wanted, and a progressive file of more than 500 scans (TurboJPEG's
/// `TJFLAG_LIMITSCANS`, which this replaces).
static inline void cturbojpeg_progress_monitor(j_common_ptr info) {
    cturbojpeg_progress *progress = (cturbojpeg_progress *)info->progress;
    cturbojpeg_errors *errors = (cturbojpeg_errors *)info->err;
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    if (progress->should_stop != NULL && progress->should_stop()) {
        errors->cancelled = 1;
        snprintf(errors->message, sizeof errors->message, "cancelled");
        longjmp(errors->jump, 1);
    }
    if (decompress->progressive_mode && decompress->input_scan_number > 500) {
        snprintf(errors->message, sizeof errors->message, "Progressive JPEG image has more than 500 scans");
        longjmp(errors->jump, 1);
    }
}

/// Decodes a JPEG into `pixels` (`width` x `height` at `factor`'s scale, 4 bytes a pixel: RGBA, or CMYK when
/// `cmyk` is set), as `tjDecompress2` does with the same flags, but asking `should_stop` (may be NULL) between rows
/// of blocks: TurboJPEG 2 has no such hook, and a progressive file's scans can take seconds.
///
/// Returns 0 when done, 1 when done with a warning (its text in `warning`), -1 on an error (its text in `message`),
/// -2 when `should_stop` ended it. Both texts need `JMSG_LENGTH_MAX` bytes.
static inline int cturbojpeg_decompress(const unsigned char *data, unsigned long size, unsigned char *pixels,
                                        int width, int height, int cmyk, tjscalingfactor factor,
                                        int (*should_stop)(void), char *message, char *warning) {
    struct jpeg_decompress_struct info;
    cturbojpeg_errors errors = {.cancelled = 0};
    cturbojpeg_progress progress = {.should_stop = should_stop};
    JSAMPROW *volatile rows = NULL;
    memset(&info, 0, sizeof info);  /* so that jpeg_destroy_decompress is safe whenever an error comes */
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = cturbojpeg_error_exit;
    errors.manager.emit_message = cturbojpeg_emit_message;
    errors.message[0] = 0;
    errors.warning[0] = 0;
    progress.manager.progress_monitor = cturbojpeg_progress_monitor;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        free(rows);
        snprintf(message, JMSG_LENGTH_MAX, "%s", errors.message);
        return errors.cancelled ? -2 : -1;
    }
    jpeg_create_decompress(&info);
    info.progress = &progress.manager;
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    info.scale_num = (unsigned int)factor.num;
    info.scale_denom = (unsigned int)factor.denom;
    jpeg_start_decompress(&info);
    if ((int)info.output_width != width || (int)info.output_height != height || info.output_components != 4) {
        snprintf(errors.message, sizeof errors.message, "the decoded size differs from the header's");
        longjmp(errors.jump, 1);
    }
    rows = (JSAMPROW *)malloc(sizeof(JSAMPROW) * (size_t)height);
    if (rows == NULL) {
        snprintf(errors.message, sizeof errors.message, "out of memory for the row pointers");
        longjmp(errors.jump, 1);
    }
    for (int y = 0; y < height; y++) rows[y] = pixels + (size_t)y * (size_t)width * 4;
    while (info.output_scanline < info.output_height) {
        jpeg_read_scanlines(&info, rows + info.output_scanline, info.output_height - info.output_scanline);
    }
    jpeg_finish_decompress(&info);
    int warned = info.err->num_warnings > 0;
    jpeg_destroy_decompress(&info);
    free(rows);
    if (warned) snprintf(warning, JMSG_LENGTH_MAX, "%s", errors.warning);
    return warned ? 1 : 0;
}

#endif
