/**
 * STREAM datasets: batches of rows (or edge events) appended and never stored, the stream's shared
 * open block, standing subscriptions charged once at creation, and one stored window release per
 * completed block and subscription (docs/adr/0008-streams.md, docs/mechanisms/windows.md).
 */
@NullMarked
package io.privmat.stream;

import org.jspecify.annotations.NullMarked;
