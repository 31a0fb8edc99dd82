/** Upload parsers and validators (internal to the dataset capability). */
@NullMarked
package io.privmat.dataset.ingest;

import org.jspecify.annotations.NullMarked;
