; winmenu.asm -- menus and accelerators of a Win16 program: the item trees
; that LoadMenu, LoadMenuIndirect and the editing functions build, every
; return value the SDK documents, the system menu, an owner-drawn item,
; and (driven by a --messages script) the messages of choosing from the
; menu with the mouse and the keyboard, of TrackPopupMenu and of the
; accelerator table.
; output: winmenu.exe
; no-walk-expectation: a menu and accelerator scenario checked by tests/win16_menu.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Everything it finds is printed with OutputDebugString (KERNEL.115), one
; line each, formatted by wsprintf (USER.420):
;   handles main=... file=... recent=... edit=... help=...  (the menus of
;                                  the class menu MAINMENU, for the test to
;                                  name them; later `handles system=...`)
;   NAME = value                   a function's result
;   menu N: count C                a menu tree, then per item
;   item D.I state=SSSS id=IIII "text"   (depth D, position I: GetMenuState
;                                  by position, GetMenuItemID, GetMenuString)
; and its window procedure prints every menu message it gets as
; `NAME wParam LOWORD(lParam) HIWORD(lParam)` (WM_MEASUREITEM: CtlType
; CtlID itemID itemData, answering 30 x 20; WM_DRAWITEM: CtlType itemID
; itemAction itemState hwndItem itemData). WM_MENUCHAR is answered 1
; (close) for 'q', 2 with position 1 (choose) for 'x', else 0; the Help
; pop-up's WM_INITMENUPOPUP calls EndMenu. A right click opens a pop-up
; of its own (Copy and an owner-drawn item) with TrackPopupMenu and prints
; `TRACKPOPUPMENU n`. Its message loop
; calls TranslateAccelerator with the KEYS table before TranslateMessage.
; WM_DESTROY posts WM_QUIT 0.

%include "inc/win16app.inc"
%include "inc/menu.inc"

WM_DESTROY      equ 0x0002
WM_SIZE         equ 0x0005
WM_DRAWITEM     equ 0x002B
WM_MEASUREITEM  equ 0x002C
WM_NCLBUTTONDOWN equ 0x00A1
WM_COMMAND      equ 0x0111
WM_SYSCOMMAND   equ 0x0112
WM_INITMENU     equ 0x0116
WM_INITMENUPOPUP equ 0x0117
WM_MENUSELECT   equ 0x011F
WM_MENUCHAR     equ 0x0120
WM_RBUTTONDOWN  equ 0x0204

        WIN16_APP   'WINMENU', 'toolhelp16: menus and accelerators', 2
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_RESOURCE RT_MENU, 'MAINMENU', mainmenu
        NE_RESOURCE RT_MENU, 2, menu2
        NE_RESOURCE RT_ACCELERATOR, 'KEYS', keys
        NE_HEADER   2

; USERCALL ordinal, args...: push the arguments (first first, a far
; pointer as its segment then its offset) and call USER.ordinal (Pascal).
%macro USERCALL 1-*
  %rep %0 - 1
    %rotate 1
        push %1
  %endrep
  %rotate 1
        FAR_CALL_IMPORT USER, %1
%endmacro

; SAY fmt, args...: wsprintf(buf, fmt, args...) and OutputDebugString(buf).
; The arguments are words; a far pointer is two: its offset, then its
; segment.
%macro SAY 1-*
  %if %0 > 1
    %rep %0 - 1
      %rotate -1
        push %1
    %endrep
    %rotate -1
  %endif
        push ds
        push %1
        push ds
        push buf
        FAR_CALL_IMPORT USER, 420       ; wsprintf (cdecl)
        add sp, 8 + 2 * (%0 - 1)
        push ds
        push buf
        FAR_CALL_IMPORT KERNEL, 115     ; OutputDebugString
%endmacro

; T name, ordinal, args...: call USER.ordinal and print `name = AX`.
%macro T 2-*
        USERCALL %{2:-1}
        mov [r], ax
        SAY fmt_eq, name_%1, ds, word [r]
%endmacro

; TREE name, handle: print the tree of a menu.
%macro TREE 2
        SAY fmt_tree, name_%1, ds
        push word %2
        push 0
        call DumpMenu
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal: [bp+6] hInstance, [bp+4] nCmdShow.
WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov word [wc+2], WndProc        ; lpfnWndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [bp+6]
        mov [wc+0x0A], ax               ; hInstance
        mov word [wc+0x12], s_mainmenu  ; lpszMenuName: the class menu
        mov [wc+0x14], ds
        mov word [wc+0x16], class_name  ; lpszClassName
        mov [wc+0x18], ds
        USERCALL 57, ds, wc             ; RegisterClass
        or ax, ax
        jz .fail
        ; CreateWindow(class, title, WS_OVERLAPPEDWINDOW, CW_USEDEFAULT,
        ; 0, CW_USEDEFAULT, 0, no parent, no menu: the class's, hInstance,
        ; no parameter)
        USERCALL 41, ds, class_name, ds, class_name, 0x00CF, 0, 0x8000, 0, 0x8000, 0, 0, 0, word [bp+6], 0, 0
        or ax, ax
        jz .fail
        mov [hwnd], ax
        USERCALL 42, ax, word [bp+4]    ; ShowWindow(hwnd, nCmdShow)
        USERCALL 157, word [hwnd]       ; GetMenu
        mov [hmain], ax
        USERCALL 159, ax, 0             ; GetSubMenu(main, 0): File
        mov [hfile], ax
        USERCALL 159, ax, 4             ; GetSubMenu(File, 4): Recent
        mov [hrecent], ax
        USERCALL 159, word [hmain], 1   ; Edit
        mov [hedit], ax
        USERCALL 159, word [hmain], 3   ; Help
        mov [hhelp], ax
        SAY fmt_handles, word [hmain], word [hfile], word [hrecent], word [hedit], word [hhelp]
        TREE mainmenu, [hmain]
        call Tests
        USERCALL 177, word [hinst], ds, s_keys  ; LoadAccelerators(hInstance, "KEYS")
        mov [haccel], ax
        USERCALL 177, word [hinst], ds, s_keys  ; again: the same table
        cmp ax, [haccel]
        mov ax, 0
        jne .other
        inc ax
.other:
        mov [r], ax
        SAY fmt_accel, word [r]
        mov byte [ready], 1
.loop:
        USERCALL 108, ds, msg, 0, 0, 0  ; GetMessage(&msg, 0, 0, 0)
        or ax, ax
        jz .done
        USERCALL 178, word [hwnd], word [haccel], ds, msg   ; TranslateAccelerator
        or ax, ax
        jnz .loop
        USERCALL 113, ds, msg           ; TranslateMessage
        USERCALL 114, ds, msg           ; DispatchMessage
        jmp .loop
.done:
        mov ax, [msg+4]                 ; WM_QUIT's wParam
        NEAR_EPILOGUE 4
.fail:
        mov ax, 1
        NEAR_EPILOGUE 4

; DumpMenu(hMenu, depth), near pascal: [bp+6] hMenu, [bp+4] depth. Prints
; `menu N: count C` (N the depth) and each item, and the tree of each
; pop-up one level deeper.
DumpMenu:
        NEAR_PROLOGUE
        sub sp, 6                       ; [bp-2] count, [bp-4] i, [bp-6] state
        USERCALL 263, word [bp+6]       ; GetMenuItemCount
        mov [bp-2], ax
        SAY fmt_count, word [bp+4], word [bp-2]
        mov word [bp-4], 0
.next:
        mov ax, [bp-4]
        cmp ax, [bp-2]
        jge .end
        USERCALL 250, word [bp+6], word [bp-4], MF_BYPOSITION   ; GetMenuState
        mov [bp-6], ax
        USERCALL 264, word [bp+6], word [bp-4]                  ; GetMenuItemID
        mov [r], ax
        USERCALL 161, word [bp+6], word [bp-4], ds, textbuf, 64, MF_BYPOSITION ; GetMenuString
        SAY fmt_item, word [bp+4], word [bp-4], word [bp-6], word [r], textbuf, ds
        USERCALL 159, word [bp+6], word [bp-4]                  ; GetSubMenu
        or ax, ax
        jz .no_popup
        push ax
        mov ax, [bp+4]
        inc ax
        push ax
        call DumpMenu
.no_popup:
        inc word [bp-4]
        jmp .next
.end:
        NEAR_EPILOGUE 4

; The functions' return values and the trees after each edit (the test
; gives the SDK's answer for each).
Tests:
        NEAR_PROLOGUE
        ; LoadMenu by integer id: a new menu each time; a missing name: 0.
        USERCALL 150, word [hinst], 0, 2
        mov [h2], ax
        TREE menu2, [h2]
        USERCALL 150, word [hinst], 0, 2
        mov [h2b], ax
        cmp ax, [h2]
        mov ax, 0
        je .same
        inc ax
.same:
        mov [r], ax
        SAY fmt_eq, name_loadagain, ds, word [r]
        USERCALL 152, word [h2b]        ; DestroyMenu(the second copy)
        T loadnosuch, 150, word [hinst], ds, s_nosuch
        USERCALL 159, word [h2], 0
        mov [htools], ax
        ; Counts and ids.
        T count, 263, word [h2]
        T countbad, 263, 0x1234
        T idpopup, 264, word [h2], 0
        T idquit, 264, word [h2], 1
        T idpast, 264, word [h2], 5
        T idsep, 264, word [htools], 1
        ; GetMenuState: a pop-up (count << 8 | flags), by command through
        ; the pop-ups, a separator, no such item.
        T statepopup, 250, word [h2], 0, MF_BYPOSITION
        T statespell, 250, word [h2], 10, 0
        T stateout, 250, word [h2], 12, 0
        T statesep, 250, word [htools], 1, MF_BYPOSITION
        T statenone, 250, word [h2], 99, 0
        ; CheckMenuItem and EnableMenuItem return the previous state.
        T check1, 154, word [h2], 11, MF_CHECKED
        T check2, 154, word [h2], 11, 0
        T check3, 154, word [h2], 99, MF_CHECKED
        T enable1, 155, word [h2], 12, 0
        T enable2, 155, word [h2], 12, MF_DISABLED
        T enable3, 155, word [h2], 12, MF_GRAYED
        T enable4, 155, word [h2], 99, 0
        ; GetMenuString: the count copied, cut at nMaxCount - 1.
        USERCALL 161, word [h2], 13, ds, textbuf, 40, 0
        mov [r], ax
        SAY fmt_str, name_string, ds, word [r], textbuf, ds
        USERCALL 161, word [h2], 13, ds, textbuf, 3, 0
        mov [r], ax
        SAY fmt_str, name_stringcut, ds, word [r], textbuf, ds
        USERCALL 161, word [htools], 1, ds, textbuf, 40, MF_BYPOSITION
        mov [r], ax
        SAY fmt_str, name_stringsep, ds, word [r], textbuf, ds
        ; Building a menu.
        USERCALL 151                    ; CreateMenu
        mov [hnew], ax
        USERCALL 415                    ; CreatePopupMenu
        mov [hpop], ax
        T append1, 411, word [hnew], 0, 1, ds, s_one
        T append2, 411, word [hnew], MF_SEPARATOR, 0, 0, 0
        T append3, 411, word [hpop], MF_CHECKED, 21, ds, s_sub
        T append4, 411, word [hnew], MF_POPUP, word [hpop], ds, s_pop
        T appendbad, 411, word [hnew], MF_POPUP, 0x1234, ds, s_pop
        T insert1, 410, word [hnew], 0, MF_BYPOSITION, 2, ds, s_zero
        T insert2, 410, word [hnew], 21, 0, 22, ds, s_before
        T insert3, 410, word [hnew], 0xFFFF, MF_BYPOSITION, 3, ds, s_last
        T insert4, 410, word [hnew], 99, 0, 4, ds, s_nosuch
        TREE built, [hnew]
        T modify1, 414, word [hnew], 1, 0, 5, ds, s_five
        T modify2, 414, word [hnew], 0, MF_BYPOSITION | MF_GRAYED, 6, ds, s_six
        T modifynone, 414, word [hnew], 77, 0, 7, ds, s_six
        TREE modified, [hnew]
        ; ChangeMenu(hMenu, wIDChangeItem, lpNewItem, wIDNewItem, wFlags).
        T change1, 153, word [hnew], 0, ds, s_appended, 7, 0x0100     ; MF_APPEND
        T change2, 153, word [hnew], 6, ds, s_changed, 8, 0x0080      ; MF_CHANGE
        T change3, 153, word [hnew], 3, 0, 0, 0, 0x0200               ; MF_DELETE
        T change4, 153, word [hnew], 0, ds, s_ins, 9, MF_BYPOSITION   ; MF_INSERT
        T change5, 153, word [hnew], 4, 0, 0, 0, 0x1000 | MF_BYPOSITION ; MF_REMOVE
        TREE changed, [hnew]
        ; RemoveMenu (and ChangeMenu's MF_REMOVE) leave the pop-up,
        ; DeleteMenu destroys it.
        T ismenu1, 358, word [hpop]
        T remove, 412, word [hnew], 3, MF_BYPOSITION
        T append5, 411, word [hnew], MF_POPUP, word [hpop], ds, s_pop
        T delete, 413, word [hnew], 5, MF_BYPOSITION
        T ismenu2, 358, word [hpop]
        T deletenone, 413, word [hnew], 99, 0
        ; HiliteMenuItem, SetMenuItemBitmaps: the state shows them.
        T hilite, 162, word [hwnd], word [hnew], 0, MF_BYPOSITION | MF_HILITE
        T statehilite, 250, word [hnew], 0, MF_BYPOSITION
        T unhilite, 162, word [hwnd], word [hnew], 0, MF_BYPOSITION
        T bitmaps, 418, word [hnew], 0, MF_BYPOSITION, 0x1111, 0x2222
        T statebitmaps, 250, word [hnew], 0, MF_BYPOSITION
        T nobitmaps, 418, word [hnew], 0, MF_BYPOSITION, 0, 0
        T statenobitmaps, 250, word [hnew], 0, MF_BYPOSITION
        TREE final, [hnew]
        USERCALL 417                    ; GetMenuCheckMarkDimensions
        mov [r], ax
        mov [r2], dx
        SAY fmt_dims, word [r], word [r2]
        T destroy1, 152, word [hnew]
        T destroy2, 152, word [hnew]
        T ismenu3, 358, word [hnew]
        ; LoadMenuIndirect: a template in memory; version 1 is refused.
        USERCALL 220, ds, template
        mov [hind], ax
        TREE indirect, [hind]
        T indirectbad, 220, ds, badtemplate
        ; DestroyMenu destroys the pop-ups too.
        T destroyh2, 152, word [h2]
        T ismenutools, 358, word [htools]
        ; The system menu: a copy of the window's own; bRevert TRUE gives
        ; back the standard one.
        USERCALL 156, word [hwnd], 0
        mov [hsys], ax
        TREE system, [hsys]
        T sysappend, 411, word [hsys], 0, 0x0100, ds, s_custom
        USERCALL 156, word [hwnd], 0
        cmp ax, [hsys]
        mov ax, 0
        jne .sysother
        inc ax
.sysother:
        mov [r], ax
        SAY fmt_eq, name_syssame, ds, word [r]
        T sysrevert, 156, word [hwnd], 1
        T ismenusys, 358, word [hsys]
        USERCALL 156, word [hwnd], 0
        mov [hsys], ax
        SAY fmt_sys, word [hsys]
        T syscount, 263, word [hsys]
        ; SetMenu refuses what is no menu; an owner-drawn item on the bar
        ; is measured when the bar is redrawn.
        T setmenubad, 158, word [hwnd], 0x1234
        T ownerdraw, 411, word [hmain], MF_OWNERDRAW, 500, 0x1234, 0x5678
        USERCALL 160, word [hwnd]       ; DrawMenuBar
        ; The pop-up a right click tracks: Copy and an owner-drawn item.
        USERCALL 415                    ; CreatePopupMenu
        mov [htrack], ax
        USERCALL 411, word [htrack], 0, 600, ds, s_copy
        USERCALL 411, word [htrack], MF_OWNERDRAW, 601, 0xAABB, 0xCCDD
        SAY fmt_track, word [htrack]
        NEAR_EPILOGUE

; WndProc(hwnd, msg, wParam, lParam), far pascal, exported:
; [bp+0x0E] hwnd, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_MEASUREITEM
        je .measure
        cmp ax, WM_DRAWITEM
        je .draw
        cmp ax, WM_DESTROY
        je .destroy
        cmp ax, WM_RBUTTONDOWN
        je .track
        mov bx, names
.find:
        cmp word [bx], 0
        je .default
        cmp ax, [bx]
        je .report
        add bx, 4
        jmp .find
.report:
        SAY fmt_msg, word [bx+2], ds, word [bp+0x0A], word [bp+6], word [bp+8]
        cmp word [bp+0x0C], WM_INITMENUPOPUP
        jne .not_popup
        ; The Help pop-up is not to be seen: EndMenu.
        mov ax, [bp+0x0A]
        cmp ax, [hhelp]
        jne .default
        USERCALL 187                    ; EndMenu
        jmp .zero
.not_popup:
        cmp word [bp+0x0C], WM_MENUCHAR
        jne .default
        ; WM_MENUCHAR: 'q' closes the menu (1 in the high word), 'x'
        ; chooses the item at position 1 (2 in the high word), others are
        ; discarded (0).
        xor ax, ax
        xor dx, dx
        cmp word [bp+0x0A], 'q'
        jne .not_q
        inc dx
        jmp .out
.not_q:
        cmp word [bp+0x0A], 'x'
        jne .out
        mov dx, 2
        mov ax, 1
        jmp .out
.default:
        USERCALL 107, word [bp+0x0E], word [bp+0x0C], word [bp+0x0A], word [bp+8], word [bp+6]
        jmp .out
.measure:
        ; MEASUREITEMSTRUCT: CtlType, CtlID, itemID, itemWidth, itemHeight,
        ; itemData.
        les bx, [bp+6]
        SAY fmt_measure, word [es:bx], word [es:bx+2], word [es:bx+4], word [es:bx+12], word [es:bx+10]
        les bx, [bp+6]
        mov word [es:bx+6], 30
        mov word [es:bx+8], 20
        mov ax, 1
        xor dx, dx
        jmp .out
.draw:
        ; DRAWITEMSTRUCT: CtlType, CtlID, itemID, itemAction, itemState,
        ; hwndItem, hDC, rcItem, itemData.
        les bx, [bp+6]
        SAY fmt_draw, word [es:bx], word [es:bx+4], word [es:bx+6], word [es:bx+8], word [es:bx+10], word [es:bx+24], word [es:bx+22]
        mov ax, 1
        xor dx, dx
        jmp .out
.track:
        ; TrackPopupMenu(the tracked pop-up, 0, x, y, 0, hwnd, NULL)
        USERCALL 416, word [htrack], 0, word [bp+6], word [bp+8], 0, word [bp+0x0E], 0, 0
        mov [r], ax
        SAY fmt_eq, name_track, ds, word [r]
        jmp .zero
.destroy:
        USERCALL 6, 0                   ; PostQuitMessage(0)
.zero:
        xor ax, ax
        xor dx, dx
.out:
        WIN_FAR_EPILOGUE 10
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
instance_data:
        times 16 db 0                   ; filled by InitTask
hinst:   dw 0
hwnd:    dw 0
hmain:   dw 0
hfile:   dw 0
hrecent: dw 0
hedit:   dw 0
hhelp:   dw 0
haccel:  dw 0
h2:      dw 0
h2b:     dw 0
htools:  dw 0
hnew:    dw 0
hpop:    dw 0
hind:    dw 0
hsys:    dw 0
htrack:  dw 0
r:       dw 0
r2:      dw 0
ready:   db 0, 0
wc:      times 0x1A db 0                ; WNDCLASS
msg:     times 18 db 0                  ; MSG
buf:     times 128 db 0                 ; wsprintf's output
textbuf: times 64 db 0                  ; GetMenuString's
names:   dw WM_INITMENU, n_initmenu     ; the messages reported, and their names
         dw WM_INITMENUPOPUP, n_initmenupopup
         dw WM_MENUSELECT, n_menuselect
         dw WM_MENUCHAR, n_menuchar
         dw WM_COMMAND, n_command
         dw WM_SYSCOMMAND, n_syscommand
         dw WM_NCLBUTTONDOWN, n_nclbuttondown
         dw 0
n_initmenu:       db 'INITMENU', 0
n_initmenupopup:  db 'INITMENUPOPUP', 0
n_menuselect:     db 'MENUSELECT', 0
n_menuchar:       db 'MENUCHAR', 0
n_command:        db 'COMMAND', 0
n_syscommand:     db 'SYSCOMMAND', 0
n_nclbuttondown:  db 'NCLBUTTONDOWN', 0
fmt_msg:     db '%s %04X %04X %04X', 0
fmt_measure: db 'MEASUREITEM %d %d %04X %04X%04X', 0
fmt_draw:    db 'DRAWITEM %d %04X %d %04X %04X %04X%04X', 0
fmt_eq:      db '%s = %04X', 0
fmt_str:     db '%s = %d "%s"', 0
fmt_dims:    db 'checkmark = %d x %d', 0
fmt_accel:   db 'accelerators loaded, again the same: %d', 0
fmt_handles: db 'handles main=%04X file=%04X recent=%04X edit=%04X help=%04X', 0
fmt_tree:    db 'tree %s', 0
fmt_sys:     db 'handles system=%04X', 0
fmt_track:   db 'handles track=%04X', 0
fmt_count:   db 'menu %d: count %d', 0
fmt_item:    db 'item %d.%d state=%04X id=%04X "%s"', 0
class_name:  db 'WinMenu', 0
s_mainmenu:  db 'MAINMENU', 0
s_keys:      db 'KEYS', 0
s_nosuch:    db 'NoSuch', 0
s_one:       db 'One', 0
s_sub:       db 'Sub', 0
s_pop:       db '&Pop', 0
s_zero:      db 'Zero', 0
s_before:    db 'Before Sub', 0
s_last:      db 'Last', 0
s_five:      db 'Five', 0
s_six:       db 'Six', 0
s_appended:  db 'Appended', 0
s_changed:   db 'Changed', 0
s_ins:       db 'Ins', 0
s_custom:    db '&Custom', 0
s_copy:      db '&Copy', 0
name_mainmenu:   db 'MAINMENU', 0
name_menu2:      db 'LoadMenu #2', 0
name_loadagain:  db 'LoadMenu again is another menu', 0
name_loadnosuch: db 'LoadMenu NoSuch', 0
name_count:      db 'GetMenuItemCount', 0
name_countbad:   db 'GetMenuItemCount of no menu', 0
name_idpopup:    db 'GetMenuItemID of a pop-up', 0
name_idquit:     db 'GetMenuItemID Quit', 0
name_idpast:     db 'GetMenuItemID past the end', 0
name_idsep:      db 'GetMenuItemID of a separator', 0
name_statepopup: db 'GetMenuState of a pop-up', 0
name_statespell: db 'GetMenuState Spell', 0
name_stateout:   db 'GetMenuState Out', 0
name_statesep:   db 'GetMenuState of a separator', 0
name_statenone:  db 'GetMenuState of no item', 0
name_check1:     db 'CheckMenuItem In checked', 0
name_check2:     db 'CheckMenuItem In unchecked', 0
name_check3:     db 'CheckMenuItem of no item', 0
name_enable1:    db 'EnableMenuItem Out enabled', 0
name_enable2:    db 'EnableMenuItem Out disabled', 0
name_enable3:    db 'EnableMenuItem Out grayed', 0
name_enable4:    db 'EnableMenuItem of no item', 0
name_string:     db 'GetMenuString Quit', 0
name_stringcut:  db 'GetMenuString Quit in 3', 0
name_stringsep:  db 'GetMenuString of a separator', 0
name_append1:    db 'AppendMenu One', 0
name_append2:    db 'AppendMenu separator', 0
name_append3:    db 'AppendMenu Sub', 0
name_append4:    db 'AppendMenu Pop', 0
name_appendbad:  db 'AppendMenu a pop-up that is no menu', 0
name_insert1:    db 'InsertMenu Zero at 0', 0
name_insert2:    db 'InsertMenu before Sub', 0
name_insert3:    db 'InsertMenu Last at -1', 0
name_insert4:    db 'InsertMenu before no item', 0
name_built:      db 'built', 0
name_modify1:    db 'ModifyMenu One to Five', 0
name_modify2:    db 'ModifyMenu position 0 to Six', 0
name_modifynone: db 'ModifyMenu of no item', 0
name_modified:   db 'modified', 0
name_change1:    db 'ChangeMenu MF_APPEND', 0
name_change2:    db 'ChangeMenu MF_CHANGE', 0
name_change3:    db 'ChangeMenu MF_DELETE', 0
name_change4:    db 'ChangeMenu MF_INSERT', 0
name_change5:    db 'ChangeMenu MF_REMOVE', 0
name_changed:    db 'changed', 0
name_remove:     db 'RemoveMenu the separator', 0
name_ismenu1:    db 'IsMenu after MF_REMOVE', 0
name_append5:    db 'AppendMenu Pop again', 0
name_delete:     db 'DeleteMenu the pop-up', 0
name_ismenu2:    db 'IsMenu after DeleteMenu', 0
name_deletenone: db 'DeleteMenu of no item', 0
name_hilite:     db 'HiliteMenuItem', 0
name_statehilite: db 'GetMenuState hilited', 0
name_unhilite:   db 'HiliteMenuItem off', 0
name_bitmaps:    db 'SetMenuItemBitmaps', 0
name_statebitmaps: db 'GetMenuState with bitmaps', 0
name_nobitmaps:  db 'SetMenuItemBitmaps none', 0
name_statenobitmaps: db 'GetMenuState without bitmaps', 0
name_final:      db 'final', 0
name_destroy1:   db 'DestroyMenu', 0
name_destroy2:   db 'DestroyMenu again', 0
name_ismenu3:    db 'IsMenu after DestroyMenu', 0
name_indirect:   db 'LoadMenuIndirect', 0
name_indirectbad: db 'LoadMenuIndirect version 1', 0
name_destroyh2:  db 'DestroyMenu #2', 0
name_ismenutools: db 'IsMenu of its pop-up', 0
name_system:     db 'system menu', 0
name_sysappend:  db 'AppendMenu to the system menu', 0
name_syssame:    db 'GetSystemMenu again is the same', 0
name_sysrevert:  db 'GetSystemMenu bRevert', 0
name_ismenusys:  db 'IsMenu of the reverted copy', 0
name_syscount:   db 'GetMenuItemCount of the new copy', 0
name_setmenubad: db 'SetMenu of no menu', 0
name_ownerdraw:  db 'AppendMenu owner-drawn', 0
name_track:      db 'TRACKPOPUPMENU', 0
; A template in memory (LoadMenuIndirect): header offset 2 skips two
; bytes.
template:
        dw 0, 2
        dw 0xEEEE
        MENU_POPUP  0, '&Indirect'
        MENU_ITEM   MF_CHECKED, 1000, '&Alpha'
        MENU_ITEM   MF_END | MF_MENUBREAK, 1001, '&Beta'
        MENU_ITEM   MF_END | MF_HELP, 1002, '&Gamma'
badtemplate:
        dw 1, 0
        MENU_ITEM   MF_END, 1, 'x'
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
        NE_RESDATA mainmenu
        MENU_HEADER
        MENU_POPUP  0, '&File'
        MENU_ITEM   0, 100, '&New', 9, 'Ctrl+N'
        MENU_ITEM   0, 101, '&Open...', 9, 'F2'
        MENU_SEPARATOR 0
        MENU_ITEM   MF_GRAYED, 102, '&Save', 9, 'Ctrl+S'
        MENU_POPUP  0, '&Recent'
        MENU_ITEM   0, 110, '&1 A.TXT'
        MENU_ITEM   MF_END | MF_CHECKED, 111, '&2 B.TXT'
        MENU_ITEM   MF_END, 103, 'E&xit'
        MENU_POPUP  0, '&Edit'
        MENU_ITEM   0, 200, '&Undo', 9, 'Alt+BkSp'
        MENU_ITEM   MF_END, 201, 'Cu&t'
        MENU_ITEM   0, 300, '&Go!'
        MENU_POPUP  MF_END | MF_HELP, '&Help'
        MENU_ITEM   MF_END, 400, '&About...'
        NE_RESDATA_END mainmenu
        NE_RESDATA menu2
        MENU_HEADER
        MENU_POPUP  0, '&Tools'
        MENU_ITEM   MF_CHECKED, 10, '&Spell'
        MENU_SEPARATOR 0
        MENU_POPUP  MF_END, '&Zoom'
        MENU_ITEM   0, 11, '&In'
        MENU_ITEM   MF_END | MF_GRAYED, 12, '&Out'
        MENU_ITEM   MF_END | MF_MENUBARBREAK, 13, '&Quit'
        NE_RESDATA_END menu2
        NE_RESDATA keys
        ACCEL       0, 0x0E, 100                    ; "^N": Ctrl+N typed
        ACCEL       FVIRTKEY, 0x71, 101             ; VK_F2
        ACCEL       FVIRTKEY | FCONTROL, 'S', 102   ; Ctrl+S (Save is grayed)
        ACCEL       FVIRTKEY | FALT, 0x08, 200      ; Alt+Backspace
        ACCEL       FVIRTKEY | FSHIFT, 0x78, 900    ; Shift+F9: no menu item
        ACCEL       FVIRTKEY | FCONTROL | FLAST, 0x72, 0xF130 ; Ctrl+F3: SC_TASKLIST
        NE_RESDATA_END keys
        NE_RESOURCES_END
