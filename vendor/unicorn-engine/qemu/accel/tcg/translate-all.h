/*
 *  Translated block handling
 *
 *  Copyright (c) 2003 Fabrice Bellard
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with this library; if not, see <http://www.gnu.org/licenses/>.
 */
#ifndef TRANSLATE_ALL_H
#define TRANSLATE_ALL_H

#include "exec/exec-all.h"
#include "qemu/bitops.h"
#include "uc_priv.h"

typedef struct PageDesc {
    /* list of TBs intersecting this ram page */
    uintptr_t first_tb;
    /* in order to optimize self modifying code, we count the number
       of lookups we do to a given page to use a bitmap */
    unsigned long *code_bitmap;
    unsigned int code_write_count;
    /* toolhelp16 patch 0004: stores into the page that met none of its
       code since it was last looked at, and how many looks there were
       (each doubles the stores the next one waits for) */
    unsigned int data_write_count;
    unsigned int data_looks;
    /* toolhelp16 patch 0010: NULL until a store first rewrites code
       bytes of the page; then three bitmaps of TARGET_PAGE_SIZE bits
       each (SMC_SEEN, SMC_HOT, SMC_START): the bytes rewritten once,
       the bytes rewritten again, and where instructions holding the
       latter start. */
    unsigned long *smc_bits;
} PageDesc;


/* translate-all.c */
struct page_collection *page_collection_lock(struct uc_struct *uc, tb_page_addr_t start,
                                             tb_page_addr_t end);
void page_collection_unlock(struct page_collection *set);
bool tb_page_has_code(struct uc_struct *uc, tb_page_addr_t addr);
PageDesc *tb_page_desc(struct uc_struct *uc, tb_page_addr_t index);
int tb_store_meets_code_slow(struct uc_struct *uc, PageDesc *p,
                             tb_page_addr_t start, int len, uintptr_t retaddr);
int tb_page_look(struct uc_struct *uc, PageDesc *p, tb_page_addr_t start,
                 uintptr_t retaddr);

/*
 * toolhelp16 patch 0003: what a store of len (1 to 8) bytes at ram
 * address start, all in one page, meets: 0 when the page holds no
 * translated code, 1 when it does but none in those bytes, 2 when the
 * bytes hold code or the page has no code bitmap yet (the caller then
 * takes the path that invalidates). The page descriptor comes from a
 * small cache in uc_struct (page descriptors live as long as the engine).
 */
static inline int QEMU_ALWAYS_INLINE tb_store_meets_code(struct uc_struct *uc,
                                      tb_page_addr_t start, int len,
                                      uintptr_t retaddr)
{
    tb_page_addr_t index = start >> TARGET_PAGE_BITS;
    unsigned int slot = index % ARRAY_SIZE(uc->pd_cache);
    unsigned int nr = start & ~TARGET_PAGE_MASK;
    PageDesc *p;

    if (uc->pd_cache_tag[slot] == index + 1) {
        p = uc->pd_cache[slot];
    } else {
        p = tb_page_desc(uc, index);
        if (!p) {
            return 0;
        }
        uc->pd_cache[slot] = p;
        uc->pd_cache_tag[slot] = index + 1;
    }
    if (!p->first_tb) {
        return 0;
    }
    if (!p->code_bitmap || (nr % BITS_PER_LONG) + len > BITS_PER_LONG) {
        return tb_store_meets_code_slow(uc, p, start, len, retaddr);
    }
    if ((p->code_bitmap[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) &
        ((2UL << (len - 1)) - 1)) {
        return 2;
    }
    if (++p->data_write_count >= (1024u << p->data_looks)) {
        return tb_page_look(uc, p, start, retaddr);
    }
    return 1;
}
void tb_invalidate_phys_page_fast(struct uc_struct *uc, struct page_collection *pages,
                                  tb_page_addr_t start, int len,
                                  uintptr_t retaddr);
void tb_invalidate_phys_page_range(struct uc_struct *uc, tb_page_addr_t start, tb_page_addr_t end);
void tb_invalidate_phys_range(struct uc_struct *uc, ram_addr_t start, ram_addr_t end);
void tb_check_watchpoint(CPUState *cpu, uintptr_t retaddr);

#endif /* TRANSLATE_ALL_H */
