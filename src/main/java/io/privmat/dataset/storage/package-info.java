/** PostgreSQL storage of dataset metadata, data chunks and graph vertex labels (internal). */
@NullMarked
package io.privmat.dataset.storage;

import org.jspecify.annotations.NullMarked;
