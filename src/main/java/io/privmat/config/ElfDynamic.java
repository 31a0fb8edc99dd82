package io.privmat.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a 64-bit ELF shared library says about itself in its dynamic section: which of some given
 * symbols it defines (exports), the libraries it needs ({@code DT_NEEDED}) and where it looks for
 * them ({@code DT_RUNPATH} / {@code DT_RPATH}). Read from the section headers ({@code .dynsym},
 * {@code .dynamic} and their string tables), without loading or mapping the library. A file that is not such a
 * library (or is stripped of section headers) reads as defining nothing and needing nothing.
 */
record ElfDynamic(Set<String> defined, List<String> needed, List<String> runPaths) {

    private static final int SHT_DYNAMIC = 6;
    private static final int SHT_DYNSYM = 11;
    private static final long DT_NEEDED = 1;
    private static final long DT_RPATH = 15;
    private static final long DT_RUNPATH = 29;

    static final ElfDynamic NONE = new ElfDynamic(Set.of(), List.of(), List.of());

    /** Most bytes read from one section: a symbol or string table far beyond any real library's. */
    private static final long MAX_SECTION = 64L << 20;

    /**
     * Reads {@code file}, keeping of its defined dynamic symbols only those in {@code wanted}. Reads
     * the headers and the few sections needed into memory (never maps the file: a mapping would stay
     * in the process until collected, and look as if the library had been loaded).
     */
    static ElfDynamic read(Path file, Set<String> wanted) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (channel.size() < 64) {
                return NONE;
            }
            return parse(channel, wanted);
        } catch (RuntimeException malformed) {
            // Offsets out of range and the like: not a library we can read, so nothing is claimed for it.
            return NONE;
        }
    }

    private static ElfDynamic parse(FileChannel file, Set<String> wanted) throws IOException {
        ByteBuffer header = bytes(file, 0, 64, ByteOrder.LITTLE_ENDIAN);
        if (header.get(0) != 0x7f || header.get(1) != 'E' || header.get(2) != 'L' || header.get(3) != 'F'
                || header.get(4) != 2) {
            return NONE; // not ELF, or 32-bit
        }
        ByteOrder order = header.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        header.order(order);
        long sectionTable = header.getLong(0x28);
        int entrySize = Short.toUnsignedInt(header.getShort(0x3A));
        int sections = Short.toUnsignedInt(header.getShort(0x3C));
        if (sectionTable == 0 || sections == 0 || entrySize < 64) {
            return NONE;
        }
        ByteBuffer table = bytes(file, sectionTable, (long) sections * entrySize, order);
        Set<String> defined = new HashSet<>();
        List<String> needed = new ArrayList<>();
        List<String> runPaths = new ArrayList<>();
        for (int i = 0; i < sections; i++) {
            int at = i * entrySize;
            int type = table.getInt(at + 4);
            if (type != SHT_DYNSYM && type != SHT_DYNAMIC) {
                continue;
            }
            ByteBuffer section = bytes(file, table.getLong(at + 0x18), table.getLong(at + 0x20), order);
            int link = table.getInt(at + 0x28);
            if (link <= 0 || link >= sections) {
                continue;
            }
            int linked = link * entrySize;
            ByteBuffer strings = bytes(file, table.getLong(linked + 0x18), table.getLong(linked + 0x20), order);
            if (type == SHT_DYNSYM) {
                for (int sym = 0; sym + 24 <= section.limit(); sym += 24) {
                    int bind = (section.get(sym + 4) & 0xff) >>> 4;
                    int sectionIndex = Short.toUnsignedInt(section.getShort(sym + 6));
                    if (sectionIndex != 0 && (bind == 1 || bind == 2)) { // defined, GLOBAL or WEAK
                        String name = string(strings, section.getInt(sym));
                        if (wanted.contains(name)) {
                            defined.add(name);
                        }
                    }
                }
            } else {
                for (int entry = 0; entry + 16 <= section.limit(); entry += 16) {
                    long tag = section.getLong(entry);
                    if (tag == 0) {
                        break;
                    }
                    if (tag == DT_NEEDED || tag == DT_RPATH || tag == DT_RUNPATH) {
                        String value = string(strings, Math.toIntExact(section.getLong(entry + 8)));
                        if (tag == DT_NEEDED) {
                            needed.add(value);
                        } else {
                            runPaths.addAll(List.of(value.split(":")));
                        }
                    }
                }
            }
        }
        return new ElfDynamic(Set.copyOf(defined), List.copyOf(needed), List.copyOf(runPaths));
    }

    /** {@code length} bytes of the file from {@code offset}. */
    private static ByteBuffer bytes(FileChannel file, long offset, long length, ByteOrder order) throws IOException {
        if (offset < 0 || length < 0 || length > MAX_SECTION || offset + length > file.size()) {
            throw new IllegalArgumentException("section out of the file");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) length).order(order);
        while (buffer.hasRemaining()) {
            if (file.read(buffer, offset + buffer.position()) < 0) {
                throw new IllegalArgumentException("file ended early");
            }
        }
        return buffer.flip();
    }

    private static String string(ByteBuffer elf, int at) {
        int end = at;
        while (elf.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - at];
        elf.get(at, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
